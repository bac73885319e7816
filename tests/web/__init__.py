"""Tests of the web table (server side); the page\x27s browser test lives here too."""
