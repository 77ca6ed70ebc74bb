#!/usr/bin/env bash
# Consistent online backup of the barbu store (safe while the server runs: SQLite's backup API copies a
# snapshot, WAL included). Usage: backup.sh [DB] [DIR]; keeps the newest 30 copies.
set -euo pipefail
db="${1:-/var/lib/barbu/barbu.sqlite3}"
dir="${2:-/var/backups/barbu}"
mkdir -p "$dir"
out="$dir/barbu-$(date -u +%Y%m%dT%H%M%SZ).sqlite3"
python3 - "$db" "$out" <<'PY'
import sqlite3, sys
src = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True)
dst = sqlite3.connect(sys.argv[2])
src.backup(dst)
dst.execute("PRAGMA integrity_check").fetchone()
dst.close()
src.close()
PY
gzip -9 "$out"
ls -1t "$dir"/barbu-*.sqlite3.gz | tail -n +31 | xargs -r rm --
echo "backed up $db to $out.gz"
