"""Schemathesis hooks of the fuzz runs (tools/dev/schemathesis.ts): the rules OpenAPI cannot state.

Each repair keeps a generated request (positive mode only) within a rule that relates two values
or needs the network, which JSON Schema cannot express, and that the server enforces with a 400 as
the spec asks. Without it Schemathesis would count the refusal as a schema-valid request refused
(ST202). Everything else the server refuses, the documents state; nothing else is changed here.
"""

import os
from datetime import datetime, timedelta, timezone

import schemathesis

# The run's local HTTPS sink (runSchemathesis passes it): the fuzzed stack allows loopback for it,
# so test events and redeliveries reach a receiver on this machine and nothing leaves it.
WEBHOOK_URL = os.environ["FUZZ_WEBHOOK_URL"]
MAX_USAGE_DAYS = 366  # MAX_USAGE_DAYS in src/billing/billing.schemas.ts


def _instant(value):
    try:
        parsed = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=timezone.utc)


def _iso(moment):
    utc = moment.astimezone(timezone.utc)
    return f"{utc.year:04d}-{utc.month:02d}-{utc.day:02d}T{utc.hour:02d}:{utc.minute:02d}:{utc.second:02d}Z"


def _usage_period(query):
    """GET /usage: `to` after `from`, at most 366 days apart (two query parameters)."""
    start, end = _instant(query.get("from")), _instant(query.get("to"))
    if "from" in query and start is not None and (end is None or not (start < end <= start + timedelta(days=MAX_USAGE_DAYS))):
        try:
            query["to"] = _iso(start + timedelta(days=1))
        except OverflowError:
            query["from"], query["to"] = _iso(start - timedelta(days=1)), _iso(start)


def _years_in_order(criteria):
    """criteria.years_experience: min not above max (two fields of one object)."""
    years = criteria.get("years_experience") if isinstance(criteria, dict) else None
    if isinstance(years, dict) and isinstance(years.get("min"), (int, float)) and isinstance(years.get("max"), (int, float)):
        if years["min"] > years["max"]:
            years["min"], years["max"] = years["max"], years["min"]


def _jd_names_a_role(body):
    """jd_text: the text must yield criteria (the extractor needs a role or skill in it), a rule about meaning."""
    if isinstance(body.get("jd_text"), str):
        body["jd_text"] = "Backend Engineer. " + body["jd_text"]


def _places_by_name_or_id(query):
    """GET /reference/places: q or ids, exactly one of them (two query parameters); q trimmed is not blank."""
    if "q" in query and "ids" in query:
        del query["ids"]
    if "ids" not in query and not str(query.get("q", "")).strip():
        query["q"] = "leeds"


def _places_on_the_gazetteer(criteria):
    """criteria.places: names and ids must name a place of the gazetteer (reference data, looked up with GET /reference/places)."""
    places = criteria.get("places") if isinstance(criteria, dict) else None
    if isinstance(places, list):
        for i, place in enumerate(places):
            if isinstance(place, str):
                places[i] = "Leeds"
            elif isinstance(place, dict) and "name" in place:
                place["name"] = "Leeds"
            elif isinstance(place, dict) and "id" in place:
                place["id"] = "geonames:2644688"


def _examples_of_the_workspace(criteria):
    """criteria.like: candidates this workspace has read (its data decides), so a generated id is dropped.

    A search needs something to search on: when `like` was all the criteria had, a title stands in.
    """
    if isinstance(criteria, dict) and "like" in criteria:
        del criteria["like"]
        if not any(criteria.get(k) not in (None, []) for k in ("family", "occupations", "titles", "skills", "must_have_skills", "industries")):
            criteria["titles"] = ["Backend Engineer"]


# SEARCHABLE_FIELDS in src/domain/criteria.ts, less the ones a scoring change may not touch.
SEARCHABLE_CHANGES = ("skills", "must_have_skills", "industries")


def _something_left_to_search(path, body):
    """A scoring change's criteria: removing a field (null or an empty list) may leave the search nothing to search on.

    Whether it does depends on the search's stored criteria (a search launched with only skills loses
    everything when skills is removed: 400 invalid_criteria), so removals of searchable fields are
    dropped from valid cases.
    """
    criteria = body.get("criteria") if "/scoring/" in path else None
    if isinstance(criteria, dict):
        for key in SEARCHABLE_CHANGES:
            if key in criteria and criteria[key] in (None, []):
                del criteria[key]


def _a_weight_stays(body):
    """weights: at least one criterion the search uses keeps a weight above 0 (the search's state decides which)."""
    weights = body.get("weights")
    if isinstance(weights, dict) and weights and not any(isinstance(v, (int, float)) and v > 0 for v in weights.values()):
        weights["title"] = 30


def _repair(case):
    """Keeps one valid case within the rules above."""
    path = case.operation.path
    if path.endswith("/usage") and isinstance(case.query, dict):
        _usage_period(case.query)
    if path.endswith("/reference/places") and isinstance(case.query, dict):
        _places_by_name_or_id(case.query)
    if isinstance(case.body, dict):
        _years_in_order(case.body.get("criteria"))
        _examples_of_the_workspace(case.body.get("criteria"))
        _places_on_the_gazetteer(case.body.get("criteria"))
        _jd_names_a_role(case.body)
        _a_weight_stays(case.body)
        _something_left_to_search(path, case.body)
        # A webhook URL must resolve to an allowed address (DNS, at creation and at every attempt).
        if "/webhooks" in path and "url" in case.body:
            case.body["url"] = WEBHOOK_URL
    return case


@schemathesis.hook
def map_case(context, case):
    if case.meta is None or not case.meta.generation.mode.is_positive:
        return case
    return _repair(case)


@schemathesis.hook
def before_add_examples(context, examples):
    """The documents' own examples are valid requests too (map_case does not see them)."""
    for case in examples:
        _repair(case)
