"""A loopback listener for bench/startup.sh: writes its port to argv[1], and the wall-clock time
(ms since the epoch) at which the first byte of a connection arrives to argv[2], unless that file
exists already (the script removes it before each run). It answers
memcache text commands just enough for a client to finish: END to a get, VERSION to version,
STORED to a storage command (after its data line), ERROR to anything else."""
import os
import socket
import sys
import threading
import time


def serve(conn):
    first = True
    pending = b""
    expect_data = False
    with conn:
        while True:
            data = conn.recv(65536)
            if not data:
                return
            if first:
                if not os.path.exists(sys.argv[2]):
                    with open(sys.argv[2], "w") as f:
                        f.write(str(int(time.time() * 1000)))
                first = False
            pending += data
            while b"\r\n" in pending:
                line, pending = pending.split(b"\r\n", 1)
                if expect_data:
                    expect_data = False
                    conn.sendall(b"STORED\r\n")
                    continue
                word = line.split(b" ", 1)[0]
                if word in (b"get", b"gets"):
                    conn.sendall(b"END\r\n")
                elif word == b"version":
                    conn.sendall(b"VERSION 1.6.0\r\n")
                elif word in (b"set", b"add", b"replace", b"append", b"prepend", b"cas"):
                    expect_data = True
                else:
                    conn.sendall(b"ERROR\r\n")


def main():
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", 0))
    server.listen(64)
    with open(sys.argv[1], "w") as f:
        f.write(str(server.getsockname()[1]))
    while True:
        conn, _ = server.accept()
        threading.Thread(target=serve, args=(conn,), daemon=True).start()


main()
