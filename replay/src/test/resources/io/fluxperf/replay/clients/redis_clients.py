# Real redis clients (Debian's python3-redis) for CapturedClientsReplayTest: several connections at once,
# each with keys of its own (so that every hit and miss is the same in a replay), mixed commands, values
# of up to 8 KB, each client paced. Arguments: host port connections rounds pause-seconds.
import random
import sys
import threading
import time

import redis

host, port, connections, rounds, pause = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])


def client(n):
    r = redis.Redis(host=host, port=port)
    rnd = random.Random(n)
    p = "c%d:" % n
    for i in range(rounds):
        size = rnd.choice([0, 1, 10, 100, 1000, 4000, 8000])
        r.set(p + "k%d" % (i % 20), b"x" * size)
        r.get(p + "k%d" % rnd.randrange(25))
        r.incr(p + "counter")
        r.mget([p + "k%d" % j for j in range(3)])
        r.hset(p + "h", "f%d" % (i % 5), "v" * (i % 50))
        r.hget(p + "h", "f%d" % rnd.randrange(8))
        r.lpush(p + "l", i)
        r.lrange(p + "l", 0, 3)
        r.expire(p + "l", 3600)
        r.delete(p + "k%d" % rnd.randrange(25))
        r.exists(p + "k%d" % rnd.randrange(25))
        if i % 5 == 0:
            pipe = r.pipeline(transaction=False)
            pipe.set(p + "pp", "1")
            pipe.get(p + "pp")
            pipe.incrby(p + "counter", 3)
            pipe.execute()
        time.sleep(pause)
    r.close()


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
