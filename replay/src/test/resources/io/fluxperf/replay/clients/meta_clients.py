# A memcached meta-protocol client for CapturedClientsReplayTest (no Debian client library speaks meta):
# several connections at once, each with keys of its own, mg/ms/md/ma with their flags, values of up to
# 8 KB, and quiet batches ended by mn, as meta clients pipeline them; each client paced.
# Arguments: host port connections rounds pause-seconds.
import random
import socket
import sys
import threading
import time

host, port, connections, rounds, pause = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])
SIZES = [0, 1, 10, 100, 1000, 4000, 8000]


class Conn:
    def __init__(self):
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.s = socket.socket(family, socket.SOCK_STREAM)
        self.s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.s.connect((host, port))
        self.buf = b""

    def line(self):
        while b"\r\n" not in self.buf:
            chunk = self.s.recv(65536)
            if not chunk:
                raise EOFError("server closed")
            self.buf += chunk
        l, self.buf = self.buf.split(b"\r\n", 1)
        return l

    def reply(self):
        l = self.line()
        if l.startswith(b"VA "):
            n = int(l.split()[1])
            while len(self.buf) < n + 2:
                self.buf += self.s.recv(65536)
            self.buf = self.buf[n + 2:]
        elif l.startswith(b"CLIENT_ERROR") or l.startswith(b"SERVER_ERROR") or l == b"ERROR":
            raise RuntimeError(l.decode())
        return l

    def call(self, data):
        self.s.sendall(data)
        return self.reply()

    def until_mn(self):
        while self.reply() != b"MN":
            pass


def client(n):
    c = Conn()
    rnd = random.Random(200 + n)
    p = "m%d:" % n
    c.call(b"ms %scnt 3\r\n100\r\n" % p.encode())
    for i in range(rounds):
        k = lambda j: ("%sk%d" % (p, j)).encode()
        v = b"m" * rnd.choice(SIZES)
        c.call(b"ms %s %d T%d F5\r\n%s\r\n" % (k(i % 20), len(v), rnd.choice([0, 60, 3600]), v))
        c.call(b"mg %s v f\r\n" % k(rnd.randrange(25)))
        c.call(b"mg %s v c k\r\n" % k(rnd.randrange(25)))
        c.call(b"ms %s 1 MA\r\n+\r\n" % k(i % 20))
        c.call(b"ma %scnt D2\r\n" % p.encode())
        c.call(b"ma %scnt MD v\r\n" % p.encode())
        c.call(b"md %s\r\n" % k(rnd.randrange(25)))
        if i % 3 == 0:  # a quiet batch: only hits and failures answer, mn ends it
            c.s.sendall(b"mg %s q v k\r\nmg %s q v k\r\nms %s 2 q\r\nqq\r\nmd %s q\r\nmn\r\n"
                        % (k(rnd.randrange(25)), k(rnd.randrange(25)), k(i % 20), k(rnd.randrange(25))))
            c.until_mn()
        time.sleep(pause)
    c.s.close()


failures = []


def guarded(n):
    try:
        client(n)
    except Exception as e:  # the test fails on any error
        failures.append(repr(e))


threads = [threading.Thread(target=guarded, args=(n,)) for n in range(connections)]
for t in threads:
    t.start()
for t in threads:
    t.join()
if failures:
    sys.exit("client failures: " + "; ".join(failures))
