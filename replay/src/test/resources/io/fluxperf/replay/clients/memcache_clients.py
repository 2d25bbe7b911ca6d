# Real memcache clients for CapturedClientsReplayTest: Debian's python3-pymemcache (the text protocol, one
# client with noreply writes) and python3-pylibmc (binary=True), several connections at once on one port,
# each with keys of its own, mixed commands, values of up to 8 KB, each client paced.
# Arguments: host port text-connections binary-connections rounds pause-seconds.
import random
import sys
import threading
import time

import pylibmc
from pymemcache.client.base import Client

host, port = sys.argv[1], int(sys.argv[2])
texts, binaries, rounds, pause = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), float(sys.argv[6])
SIZES = [0, 1, 10, 100, 1000, 4000, 8000]


def text_client(n):
    c = Client((host, port), default_noreply=(n == 1))  # the second one writes with noreply, as pymemcache's default
    rnd = random.Random(n)
    p = "t%d:" % n
    c.set(p + "n", b"100", noreply=False)
    for i in range(rounds):
        c.set(p + "k%d" % (i % 20), b"x" * rnd.choice(SIZES))
        c.get(p + "k%d" % rnd.randrange(25))
        c.get_many([p + "k%d" % j for j in range(rnd.randrange(1, 5))])
        c.add(p + "a%d" % (i % 7), b"1")
        c.replace(p + "k%d" % rnd.randrange(25), b"r" * rnd.choice(SIZES))
        c.append(p + "k%d" % (i % 20), b"+")
        c.prepend(p + "k%d" % (i % 20), b"-")
        c.incr(p + "n", 2)
        c.decr(p + "n", 1)
        c.touch(p + "k%d" % rnd.randrange(25), 3600)
        c.delete(p + "k%d" % rnd.randrange(25))
        time.sleep(pause)
    c.close()


def tolerant(call, *args):
    # pylibmc raises for a miss of a conditional write (replace, append, incr on nothing): a normal outcome here
    try:
        call(*args)
    except pylibmc.NotFound:
        pass


def binary_client(n):
    address = "[%s]:%d" % (host, port) if ":" in host else "%s:%d" % (host, port)
    m = pylibmc.Client([address], binary=True)
    rnd = random.Random(100 + n)
    p = "b%d:" % n
    m.set(p + "n", 100)
    for i in range(rounds):
        m.set(p + "k%d" % (i % 20), b"y" * rnd.choice(SIZES))
        m.get(p + "k%d" % rnd.randrange(25))
        m.get_multi([p + "k%d" % j for j in range(rnd.randrange(1, 5))])
        m.add(p + "a%d" % (i % 7), b"1")
        tolerant(m.replace, p + "k%d" % rnd.randrange(25), b"r" * rnd.choice(SIZES))
        tolerant(m.append, p + "k%d" % (i % 20), b"+")
        m.incr(p + "n", 2)
        m.decr(p + "n", 1)
        m.delete(p + "k%d" % rnd.randrange(25))
        time.sleep(pause)
    m.disconnect_all()


failures = []


def guarded(target, n):
    try:
        target(n)
    except Exception as e:  # the test fails on any other error
        failures.append(repr(e))


threads = [threading.Thread(target=guarded, args=(text_client, n)) for n in range(texts)]
threads += [threading.Thread(target=guarded, args=(binary_client, n)) for n in range(binaries)]
for t in threads:
    t.start()
for t in threads:
    t.join()
if failures:
    sys.exit("client failures: " + "; ".join(failures))
