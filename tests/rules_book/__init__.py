"""The rules book: one test per scenario of RULES §7, on every preset the scenario concerns."""
