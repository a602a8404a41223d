#!/usr/bin/env bash
# Checks a built Plinth image the way an operator uses it (docs/operations-production.md):
#   docker build -f docker/Dockerfile -t plinth .
#   scripts/image-smoke.sh plinth                       # SQLite in a volume
#   MYSQL_URL=mariadb://root@127.0.0.1:3306 scripts/image-smoke.sh plinth   # also MariaDB/MySQL
# The containers use the host's network (the MySQL URL is the host's); PORT picks the port.
# Builds nothing and downloads nothing; removes what it started.
set -euo pipefail
image="${1:?usage: scripts/image-smoke.sh IMAGE}"
port="${PORT:-3917}"
name="plinth-smoke-$$"
data="$(mktemp -d)"
chmod 777 "$data"
db=""
cleanup() {
  docker rm -f "$name" >/dev/null 2>&1 || true
  rm -rf "$data" 2>/dev/null || docker run --rm -v "$data:/d" --entrypoint sh "$image" -c 'rm -rf /d/*' >/dev/null 2>&1 || true
  if [[ -n "$db" ]]; then mariadb -h127.0.0.1 -uroot -e "DROP DATABASE IF EXISTS \`$db\`" || true; fi
}
trap cleanup EXIT
ok() { printf '  ok  %s\n' "$*"; }
fail() { printf 'FAIL  %s\n' "$*" >&2; docker logs "$name" 2>&1 | tail -20 >&2 || true; exit 1; }
in_container() { docker exec "$name" node -e "$1"; }
get() { in_container "fetch('http://127.0.0.1:$port$1').then(async r=>{console.log(r.status);process.stdout.write(await r.text())})"; }

echo "image $image"
[[ "$(docker run --rm "$image" id -u)" == 1000 ]] && ok "runs as uid 1000 (node), not root" || fail "runs as root"
docker run --rm "$image" node --version | sed 's/^/  ok  node /'
docker run --rm "$image" node dist/cli.js help >/dev/null && ok "node dist/cli.js help"
docker run --rm "$image" node dist/executor/main.js --help >/dev/null && ok "node dist/executor/main.js --help"

start() {
  local started
  started=$(date +%s%N)
  docker run -d --name "$name" --network host -e PORT="$port" -e HOST=127.0.0.1 -v "$data:/data" "$@" "$image" >/dev/null
  for _ in $(seq 1 120); do
    if docker exec "$name" node -e "fetch('http://127.0.0.1:$port/readyz').then(r=>process.exit(r.status===200?0:1),()=>process.exit(1))" 2>/dev/null; then
      ok "ready in $(( ($(date +%s%N) - started) / 1000000 )) ms (container start to /readyz 200)"
      return
    fi
    sleep 0.25
  done
  fail "not ready within 30 s"
}

check_server() {
  [[ "$(get /api/v2/ping | head -1)" == 204 ]] && ok "GET /api/v2/ping 204" || fail "ping"
  local iact token
  iact=$(get /admin/retrieve-iact | tail -n +2)
  [[ -n "$iact" ]] && ok "IACT retrieved from loopback inside the container" || fail "IACT"
  token=$(in_container "fetch('http://127.0.0.1:$port/admin/initial-admin-user?token=$iact',{method:'POST',headers:{'content-type':'application/json'},body:JSON.stringify({username:'admin',email:'admin@example.com',password:'correct-horse-battery'})}).then(r=>r.json()).then(b=>console.log(b.token))")
  [[ "$token" == *plinthv1* ]] && ok "first administrator created" || fail "initial admin: $token"
  in_container "fetch('http://127.0.0.1:$port/api/v2/account/details',{headers:{authorization:'Bearer $token'}}).then(r=>process.exit(r.status===200?0:1))" \
    && ok "its token reads /api/v2/account/details" || fail "token"
  local health
  for _ in $(seq 1 40); do
    health=$(docker inspect --format '{{.State.Health.Status}}' "$name")
    [[ "$health" == healthy ]] && break
    sleep 1
  done
  [[ "$health" == healthy ]] && ok "HEALTHCHECK reports healthy" || fail "health: $health"
}

echo "SQLite (DATA_DIR=/data)"
start
check_server
docker exec "$name" node dist/cli.js migration:show >/dev/null && ok "node dist/cli.js migration:show"
cat > "$data/engines.json" <<'JSON'
[{"version": "1.9.0", "url": "https://releases.example.com/tool_1.9.0_linux_amd64.zip", "sha": "4d1f6b1c8f5e2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3"}]
JSON
docker exec "$name" node dist/cli.js catalog:import engine-versions /data/engines.json >/dev/null \
  && ok "node dist/cli.js catalog:import engine-versions" || fail "catalog:import"
docker rm -f "$name" >/dev/null

if [[ -n "${MYSQL_URL:-}" ]]; then
  echo "MariaDB/MySQL"
  db="plinth_smoke_$$"
  mariadb -h127.0.0.1 -uroot -e "CREATE DATABASE \`$db\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci"
  rm -rf "${data:?}"/* 2>/dev/null || true
  start -e DATABASE_URL="$MYSQL_URL/$db"
  check_server
  docker exec "$name" node dist/cli.js migration:show >/dev/null && ok "node dist/cli.js migration:show"
fi
echo "image checks passed"
