# scripts/peer-venv.sh: sourced by the test peers' scripts (argo-check, s3-peer, tus-peer, …).
#
#   peer_ready VENV SPEC IMPORTS
#
# Succeeds when the virtual environment VENV holds SPEC (the pip arguments that made it): known from
# a stamp, VENV/.flow-peer-ready, written the first time VENV's python imported IMPORTS. Tests call
# some of these scripts hundreds of times (argo-check for every manifest, s3-peer tool for every
# check), and importing hera's or moto's packages only to learn that they are there took 0.5–2 s a
# call. A changed SPEC (a new pin) no longer matches the stamp: the script then checks the imports
# again, and makes the environment anew when they fail.
peer_ready() {
    local venv=$1 spec=$2 imports=$3 stamp
    [ -x "$venv/bin/python" ] || return 1
    stamp=$(cat "$venv/.flow-peer-ready" 2>/dev/null || true)
    [ "$stamp" = "$spec" ] && return 0
    "$venv/bin/python" -c "import $imports" 2>/dev/null || return 1
    # Written whole, then renamed: a script running beside this one reads the old stamp or the new.
    printf '%s\n' "$spec" > "$venv/.flow-peer-ready.$$" && mv -f "$venv/.flow-peer-ready.$$" "$venv/.flow-peer-ready"
}
