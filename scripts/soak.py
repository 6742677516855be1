#!/usr/bin/env python3
"""Soak test driver for partyline-host (see scripts/soak.sh).

Starts the host on a loopback port with a temporary data folder, connects CLIENTS connections
(a fifth of them send garbage: broken JSON, binary, huge lines, unknown types, telnet bytes),
runs Shaky Words games back to back for MINUTES, and checks at the end:
  - the host process is alive and answers a ping,
  - its resident memory after warm-up stays flat (growth under 20 %),
  - every valid client is still connected and was served (received the latest question),
  - the scores are consistent: each final scoreboard equals the sum of the `result` points seen.
Exits non-zero with a reason when a check fails.
"""
import argparse, json, os, random, selectors, socket, subprocess, sys, tempfile, time

def rss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0

class Conn:
    def __init__(self, port, name, team, garbage):
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.setblocking(False)
        self.buf = b""
        self.name, self.team, self.garbage = name, team, garbage
        self.closed = False
        self.last_question = 0
        self.on_turn = False
    def send(self, obj):
        data = obj if isinstance(obj, bytes) else (json.dumps(obj) + "\n").encode()
        try:
            self.sock.sendall(data)
        except (BlockingIOError, OSError):
            pass
    def lines(self):
        try:
            chunk = self.sock.recv(65536)
            if not chunk:
                self.closed = True
                return []
            self.buf += chunk
        except BlockingIOError:
            return []
        except OSError:
            self.closed = True
            return []
        *complete, self.buf = self.buf.split(b"\n")
        out = []
        for raw in complete:
            try:
                out.append(json.loads(raw))
            except ValueError:
                out.append({"type": "_text"})
        return out

GARBAGE = [b"{\"type\":\n", b"\x00\x01\xff\xfe\x80\n", b"{" + b"x" * 70000 + b"\n", b"{\"type\":\"teleport\"}\n",
           b"\xff\xfb\x01\xff\xfd\x03hello\r\n", b"[" * 5000 + b"\n", b"{\"type\":\"buzz\",\"t\":\"soon\"}\n",
           b"{\"type\":\"answer\",\"text\":12}\n", b"GET / HTTP/1.1\r\n"]

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host-binary", required=True)
    parser.add_argument("--minutes", type=float, default=5)
    parser.add_argument("--clients", type=int, default=200)
    args = parser.parse_args()
    data = tempfile.mkdtemp(prefix="partyline-soak-")
    host = subprocess.Popen([args.host_binary, "--port", "0", "--bind", "127.0.0.1", "--data", data, "--no-console",
                             "--no-discovery", "--rate", "200", "--connection-rate", "0", "--question-seconds", "5",
                             "--answer-seconds", "3", "--reveal-seconds", "1", "--log-level", "warning"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    ready = host.stdout.readline().split()
    fields = dict(part.split("=", 1) for part in ready[1:])
    port, room, key = int(fields["port"]), fields["room"], fields["admin-key"]
    admin = Conn(port, "admin", "", False)
    admin.send({"type": "hello", "room": room, "role": "admin", "key": key})
    conns = []
    for index in range(args.clients):
        garbage = index % 5 == 4
        conn = Conn(port, f"P{index}", f"T{index % 8}", garbage)
        conn.send({"type": "hello", "room": room, "name": conn.name, "team": conn.team})
        conns.append(conn)
    time.sleep(1)
    rng = random.Random(7)
    start = time.time()
    end = start + args.minutes * 60
    samples = []
    games = 0
    result_points = {}
    failures = []
    game_running = False
    while time.time() < end:
        for message in admin.lines():
            kind = message.get("type")
            if kind == "result" and message.get("correct"):
                result_points[message["team"]] = result_points.get(message["team"], 0) + message.get("points", 0)
            if kind == "scoreboard":
                games += 1
                game_running = False
                for entry in message.get("ranking", []):
                    if entry["score"] != result_points.get(entry["team"], 0):
                        failures.append(f"game {games}: {entry['team']} has {entry['score']} but results add up to {result_points.get(entry['team'], 0)}")
                result_points = {}
        if not game_running:
            admin.send({"type": "start", "game": "shaky", "questions": 3, "difficulty": "mixed"})
            game_running = True
        for conn in conns:
            if conn.closed:
                continue
            for message in conn.lines():
                kind = message.get("type")
                if kind == "question":
                    conn.last_question = time.time()
                if kind == "turn":
                    conn.on_turn = message.get("team") == conn.team
            if conn.garbage and rng.random() < 0.05:
                conn.send(rng.choice(GARBAGE))
            elif rng.random() < 0.01:
                conn.send({"type": rng.choice(["buzz", "shake", "ping", "scores"])})
            if conn.on_turn and rng.random() < 0.05:
                conn.send({"type": "answer", "text": rng.choice(["paris", "saturn", "lion", "guess"])})
        if int(time.time() - start) % 10 == 0 and (not samples or time.time() - samples[-1][0] > 5):
            samples.append((time.time(), rss_kb(host.pid)))
        time.sleep(0.02)
    if host.poll() is not None:
        failures.append(f"the host exited with {host.returncode}")
    admin.send({"type": "ping", "id": 1})
    time.sleep(0.5)
    if not any(m.get("type") == "pong" for m in admin.lines()):
        failures.append("the host did not answer a ping at the end")
    valid = [c for c in conns if not c.garbage]
    dropped = [c.name for c in valid if c.closed]
    if dropped:
        failures.append(f"{len(dropped)} valid clients were dropped: {dropped[:5]}")
    stale = [c.name for c in valid if time.time() - c.last_question > 30]
    if stale:
        failures.append(f"{len(stale)} valid clients saw no question in the last 30 s")
    warm = [kb for t, kb in samples if t - start > 30] or [kb for _, kb in samples]
    if len(warm) >= 2 and warm[-1] > warm[0] * 1.2:
        failures.append(f"memory grew from {warm[0]} kB to {warm[-1]} kB")
    host.terminate()
    host.wait(timeout=10)
    print(f"soak: {args.minutes} min, {args.clients} clients, {games} games, RSS samples (kB): {[kb for _, kb in samples][-6:]}")
    if failures:
        print("FAILED:\n  " + "\n  ".join(failures))
        sys.exit(1)
    print("soak: all checks passed")

if __name__ == "__main__":
    main()
