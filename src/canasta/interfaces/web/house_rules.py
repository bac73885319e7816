"""House rules for the lobby: each family's fields a person would set, with each preset's values.

``GET /api/house-rules`` gives, family by family, the form (groups of fields, each with its
label, kind and help, from :meth:`canasta.family.Family.house_rules`) and every preset's values
of those fields (the facts' ``house_rules``), so the lobby can show the chosen preset filled in.
The page sends back ``{"preset": P, FIELD: VALUE, ...}`` with the fields it changed, and the
family's rules judge the combination when the table is created (their own message on a 422).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from fastapi import APIRouter

from canasta.family import Family, families
from canasta.interfaces.web.views import rules_facts

router = APIRouter(prefix="/api")

OTHER_GROUP = "House rules"
"""The heading of the fields a family gives no group."""


def family_form(family: Family) -> dict[str, Any]:
    """One family's form: ``{"family", "title", "groups": [{"title", "fields"}], "presets":
    {name: {field: value}}}``; a field is ``{"name", "label", "kind", "hint", ...}``."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for rule in family.house_rules():
        field = rule.to_json()
        field["name"] = field.pop("field")
        if field.get("help"):
            field["hint"] = field["help"]
        groups.setdefault(field.pop("group", OTHER_GROUP), []).append(field)
    return {
        "family": family.name, "title": family.title,
        "groups": [{"title": title, "fields": fields} for title, fields in groups.items()],
        "presets": {name: rules_facts(rules).get("house_rules", {})
                    for name, rules in family.presets().items()},
    }


@lru_cache(maxsize=1)
def _forms() -> tuple[dict[str, Any], ...]:
    return tuple(family_form(family) for family in families())


def house_rules_form() -> dict[str, Any]:
    """``{"families": [family_form, ...]}``, the default family first, and ``presets``: every
    preset's values (of its family's fields), by preset name."""
    forms = list(_forms())
    return {"families": forms,
            "presets": {name: values for form in forms
                        for name, values in form["presets"].items()}}


@router.get("/house-rules", summary="Every family's house-rules form and each preset's values")
async def get_house_rules() -> dict[str, Any]:
    """Each family's fields a person would set (grouped, with labels and kinds) and each
    preset's values of them. A table with house rules is created with a rules object:
    ``{"preset": "classic", "target_score": 3000}``; an impossible combination is refused
    with the rules' own message (422)."""
    return house_rules_form()
