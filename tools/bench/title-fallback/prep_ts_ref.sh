#!/bin/bash
# Writes the vocabulary and tune keys, then runs the service's own trigram-index.ts on them (trigram_ref.json),
# to check the Python port. Run inside the virtualenv (see README.md).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
out="${TITLE_FALLBACK_DIR:-$HOME/.cache/candidate-sourcing/title-fallback}"
mkdir -p "$out"
cd "$here"
python -c "
import json; from common import *
k,c,f=load_vocab(); json.dump(k,open(f'{HERE}/vocab_keys_tri.json','w')); json.dump([key_of(x['title']) for x in load_items()],open(f'{HERE}/tune_keys.json','w'))"
cd "$repo" && TITLE_FALLBACK_DIR="$out" node_modules/.bin/tsx "$here/trigram_ref.ts"
