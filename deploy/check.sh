#!/usr/bin/env bash
# Offline checks of deploy/ (no container engine or cluster needed):
#  - the compose file parses and resolves (`docker compose config`, or docker-compose v1);
#  - every Kubernetes manifest validates strictly (unknown fields rejected) against the
#    API schemas of Kubernetes 1.29 and of kubernetes-validate's newest version;
#  - the configs the replicas load (the ConfigMap's, deploy/local/anonymizer.yaml)
#    pass `anonymizer check-config` with the environment the manifests give them;
#  - nginx accepts the local load balancer's config (service names mapped to loopback).
# Needs: docker compose or docker-compose, python3 (a venv with kubernetes-validate
# is made in target/deploy-check-venv), a built anonymizer (cargo build --release), nginx.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=target/release/anonymizer

echo "== compose"
if docker compose version >/dev/null 2>&1; then compose=(docker compose); else compose=(docker-compose); fi
"${compose[@]}" -f deploy/compose.yaml config --quiet && echo "deploy/compose.yaml: valid (${compose[*]})"

echo "== kubernetes"
venv=target/deploy-check-venv
[ -x "$venv/bin/kubernetes-validate" ] || { python3 -m venv "$venv" && "$venv/bin/pip" install -q kubernetes-validate; }
for version in 1.29.0 default; do
  flags=(--strict --quiet); [ "$version" = default ] || flags+=(-k "$version")
  "$venv/bin/kubernetes-validate" "${flags[@]}" deploy/kubernetes/*.yaml
  echo "deploy/kubernetes/*.yaml: valid against Kubernetes ${version/default/$("$venv/bin/kubernetes-validate" --version)} (strict)"
done

echo "== replica configs"
python3 - "$tmp/configmap.yaml" <<'PY'
import sys, yaml
docs = list(yaml.safe_load_all(open("deploy/kubernetes/anonymizer.yaml")))
config = next(d for d in docs if d["kind"] == "ConfigMap")["data"]["anonymizer.yaml"]
open(sys.argv[1], "w").write(config)
PY
env_of_manifests=(ANONYMIZER_API_KEYS=my-team:change-me-0123456789
  ANONYMIZER_SECRET=change-me-to-48-random-bytes-base64-encoded-0000
  ANONYMIZER_REDIS_URL=redis://:change-me-redis-password@anonymizer-redis:6379/0)
env "${env_of_manifests[@]}" "$bin" check-config --config "$tmp/configmap.yaml"
env "${env_of_manifests[@]}" ANONYMIZER_SESSION_STORE=redis "$bin" check-config --config deploy/local/anonymizer.yaml

echo "== nginx"
sed 's/anonymizer-[ab]:8080/127.0.0.1:8080/g' deploy/local/nginx.conf > "$tmp/site.conf"
printf 'pid %s/nginx.pid;\nerror_log %s/error.log;\nevents {}\nhttp {\n  include %s/site.conf;\n}\n' "$tmp" "$tmp" "$tmp" > "$tmp/nginx.conf"
nginx -q -t -c "$tmp/nginx.conf" && echo "deploy/local/nginx.conf: valid (nginx -t)"
