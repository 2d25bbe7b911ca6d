/*
 * pace_reference: the plainest paced memcached client we could write, to hold fluxperf's --rate
 * against. One thread, no allocation after start, no parsing beyond counting replies: requests
 * fall due every 1/RATE s from a fixed start, and each goes out on the next connection with fewer
 * than PIPELINE requests in flight. Its pacing follows fluxperf's policy (LoadDriver): a timer
 * wakes it for the next request, set early by how late this machine's wake-ups have come (learnt
 * as a moving average), and whenever it is awake (that timer, or a reply) everything due within
 * EARLY_US (default 50, as fluxperf's) goes out with it; such an early request has send lag 0 and
 * its latency counts from its write. EARLY_US 0 sends nothing before its time. By default the
 * thread never blocks (it polls epoll with a zero timeout, like fluxperf --busy-poll); with
 * "sleep" it sleeps in epoll_pwait2 until the timer or a reply, like fluxperf's default, with its
 * timer slack at 1 ns as fluxperf sets its loops' (the kernel's default of 50 us would make every
 * wake-up that late).
 *
 * What it shows: on this machine, against this server, at this rate, connections and pipeline,
 * the send lag (actual minus intended send time) a client with almost no work of its own gets.
 * Whatever lag it has comes from the kernel, the server and the machine; what fluxperf has beyond
 * it is fluxperf's. bench/compare.sh builds it (cc -O2) into its output directory and runs it as
 * the "c_reference" row of the fixed-rate workloads.
 *
 *   cc -O2 -o pace_reference bench/lib/pace_reference.c
 *   pace_reference HOST PORT RATE CONNECTIONS PIPELINE KEYSPACE WARMUP_S WINDOW_S WINDOWS [busy|sleep [EARLY_US [PROTOCOL]]]
 *
 * PROTOCOL is memcache (the default), redis, or http:PATH. For memcache and redis it first stores
 * KEYSPACE keys (ref:<12 digits>, 16 bytes) with 64-byte values, then sends gets of uniformly
 * random keys (memcache "get", redis "GET" in RESP); for http it sends "GET PATH HTTP/1.1" on
 * keep-alive connections (a reply that is not 200 counts as a miss). It sends them for WARMUP_S
 * seconds (not counted) and WINDOWS windows of WINDOW_S seconds. A request belongs to the window its intended send time falls in. One line per window,
 * then a "total:" line of key=value figures for scripts:
 *
 *   window 1: 50000 requests/s; send lag p50 1 p99 9 p99.9 35 max 812 us; latency from the
 *   intended send p50 27 p99 61 p99.9 402 us; waited for a connection with room 3.1 ms (0.0 of it
 *   once already behind); 9.8 us CPU per request (0.49 cores); misses 0
 *
 * Latency and send lag are counted in 1-us steps up to 100 ms, 1-ms steps up to 10 s; a figure
 * is the upper end of its step. A wait for room starts when a request is due and every
 * connection has PIPELINE requests in flight, and ends when one has room; it counts as "behind"
 * when the request was already 1 ms late as it began (a backlog going out after a stall), as in
 * fluxperf's report. Exit code 2 with one line on stderr for a bad argument or a failed connection.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>

#define MAX_CONNECTIONS 4096
#define MAX_PIPELINE 64
#define MAX_WINDOWS 64
#define FINE_STEPS 100000   /* 1-us steps up to 100 ms */
#define COARSE_STEPS 9900   /* then 1-ms steps up to 10 s */
#define STEPS (FINE_STEPS + COARSE_STEPS + 1)
#define BEHIND_NS 1000000   /* a wait for room that begins 1 ms late is a backlog */
#define MAX_LEAD_NS 500000  /* as fluxperf's pacing: the timer's lead is learnt up to 500 us */
#define MIN_TIMER_NS 10000  /* a timer set for less than this ahead rings as late as one for now */
#define KEY_DIGITS 12
#define VALUE_BYTES 64

static void fail(const char *what) {
    fprintf(stderr, "pace_reference: %s\n", what);
    exit(2);
}

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t cpu_ns(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ((uint64_t)ru.ru_utime.tv_sec + (uint64_t)ru.ru_stime.tv_sec) * 1000000000u
           + ((uint64_t)ru.ru_utime.tv_usec + (uint64_t)ru.ru_stime.tv_usec) * 1000u;
}

/* ---- a histogram of µs steps ---- */
typedef struct { uint32_t count[STEPS]; uint64_t total; } histogram;

static void record(histogram *h, uint64_t ns) {
    uint64_t us = ns / 1000;
    size_t i = us < FINE_STEPS ? us : FINE_STEPS + (us - FINE_STEPS) / 1000;
    if (i >= STEPS) i = STEPS - 1;
    h->count[i]++;
    h->total++;
}

/* the upper end, in µs, of the step that holds the q-quantile */
static uint64_t quantile(const histogram *h, double q) {
    if (h->total == 0) return 0;
    uint64_t rank = (uint64_t)(q * (double)h->total);
    if (rank >= h->total) rank = h->total - 1;
    uint64_t seen = 0;
    for (size_t i = 0; i < STEPS; i++) {
        seen += h->count[i];
        if (seen > rank) return i < FINE_STEPS ? i + 1 : FINE_STEPS + (i - FINE_STEPS + 1) * 1000;
    }
    return 0;
}

static void merge(histogram *into, const histogram *from) {
    for (size_t i = 0; i < STEPS; i++) into->count[i] += from->count[i];
    into->total += from->total;
}

/* ---- one window's figures ---- */
typedef struct {
    histogram lag, latency;
    uint64_t replies, misses, room_ns, room_behind_ns, cpu_ns;
} window;

/* ---- connections: a ring of the intended send times of the requests in flight ---- */
typedef struct {
    int fd;
    uint64_t due[MAX_PIPELINE];     /* intended send times */
    uint64_t origin[MAX_PIPELINE];  /* what latency counts from: the intended time, or an early write */
    int head, inflight;
    int matched;   /* memcache: how much of "END\r\n" the reply stream has matched so far; http: of "\r\n\r\n" */
    int newlines;  /* memcache: newlines of the reply being read, 1 for a miss, 3 for a hit */
    long number;   /* redis: the bulk length being read; http: the Content-Length */
    int state;     /* redis and http: where in a reply the stream is (see reply_done) */
    long skip;     /* redis and http: body bytes still to skip */
    int miss;      /* the reply being read is a miss (redis nil, http not 200) */
    int header;    /* http: how much of "Content-Length: " this header line has matched; -1: not it */
} connection;

enum { MEMCACHE, REDIS, HTTP };
static int protocol = MEMCACHE;

static connection conns[MAX_CONNECTIONS];
/* one entry per free request slot, in the order the slots came free */
static int room[MAX_CONNECTIONS * MAX_PIPELINE];
static int room_head, room_count, room_capacity;

static void room_push(int c) {
    room[(room_head + room_count) % room_capacity] = c;
    room_count++;
}

static int room_pop(void) {
    int c = room[room_head];
    room_head = (room_head + 1) % room_capacity;
    room_count--;
    return c;
}

static uint64_t rng = 0x9E3779B97F4A7C15u;
static uint64_t next_random(void) {  /* xorshift64* */
    rng ^= rng >> 12; rng ^= rng << 25; rng ^= rng >> 27;
    return rng * 0x2545F4914F6CDD1Du;
}

static void put_digits(char *at, uint64_t v) {
    for (int i = KEY_DIGITS - 1; i >= 0; i--) { at[i] = (char)('0' + v % 10); v /= 10; }
}

static long arg(const char *s, const char *name, long min, long max) {
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || v < min || v > max) {
        char msg[160];
        snprintf(msg, sizeof msg, "%s must be a whole number from %ld to %ld, not '%s'", name, min, max, s);
        fail(msg);
    }
    return v;
}

static int connect_to(const char *host, const char *port) {
    struct addrinfo hints = {0}, *res;
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    if (getaddrinfo(host, port, &hints, &res) != 0) fail("cannot resolve the server's address");
    int fd = socket(res->ai_family, SOCK_STREAM, 0);
    if (fd < 0 || connect(fd, res->ai_addr, res->ai_addrlen) != 0) {
        char msg[200];
        snprintf(msg, sizeof msg, "cannot connect to %s:%s: %s", host, port, strerror(errno));
        fail(msg);
    }
    freeaddrinfo(res);
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

static void write_all(int fd, const char *buf, size_t len) {
    while (len > 0) {
        ssize_t n = write(fd, buf, len);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) fail("the server closed a connection");
        buf += n; len -= (size_t)n;
    }
}

/* Stores every key on one blocking connection, 100 sets per write. */
static void preload_redis(int fd, long keyspace) {
    static char batch[100 * 160];
    static char in[65536];
    char value[VALUE_BYTES];
    memset(value, 'v', sizeof value);
    for (long first = 0; first < keyspace; first += 100) {
        size_t len = 0;
        long n = keyspace - first < 100 ? keyspace - first : 100;
        for (long k = first; k < first + n; k++) {
            len += (size_t)sprintf(batch + len, "*3\r\n$3\r\nSET\r\n$16\r\nref:%0*ld\r\n$%d\r\n", KEY_DIGITS, k, VALUE_BYTES);
            memcpy(batch + len, value, VALUE_BYTES); len += VALUE_BYTES;
            memcpy(batch + len, "\r\n", 2); len += 2;
        }
        write_all(fd, batch, len);
        long stored = 0;
        while (stored < n) {  /* one "+OK\r\n" per set */
            ssize_t r = read(fd, in, sizeof in);
            if (r <= 0) fail("the server closed a connection while keys were stored");
            for (ssize_t i = 0; i < r; i++) if (in[i] == '\n') stored++;
        }
    }
}

/* Whether byte ch ends a reply on c (redis or http), by a small state machine over the stream. */
static int reply_done(connection *c, char ch) {
    if (protocol == REDIS) {
        switch (c->state) {
        case 0:  /* the type byte: '$' a bulk string, anything else a line ("-ERR ...") */
            c->number = 0; c->miss = 0;
            c->state = ch == '$' ? 1 : 3;
            return 0;
        case 1:  /* the bulk length up to \n */
            if (ch == '-') { c->miss = 1; return 0; }
            if (ch >= '0' && ch <= '9') { c->number = c->number * 10 + (ch - '0'); return 0; }
            if (ch != '\n') return 0;
            if (c->miss) { c->state = 0; return 1; }
            c->skip = c->number + 2; c->state = 2;
            return 0;
        case 2:  /* the value and its \r\n */
            if (--c->skip > 0) return 0;
            c->state = 0;
            return 1;
        default: /* a line reply: to its \n */
            if (ch != '\n') return 0;
            c->state = 0; c->miss = 1;
            return 1;
        }
    }
    /* http: the status line, headers to \r\n\r\n (Content-Length noted), then the body */
    static const char length[] = "content-length:";
    if (c->state == 2) {
        if (--c->skip > 0) return 0;
        c->state = 0; c->matched = 0;
        return 1;
    }
    if (c->state == 0) {  /* the status line: "HTTP/1.1 200 ..." */
        c->number = 0; c->miss = 0; c->header = 0; c->newlines = 0;
        c->state = 1;
    }
    if (c->newlines == 0 && c->matched == 0 && ch == ' ' && c->header >= 0) { c->header = -2; return 0; }
    if (c->header == -2) {  /* the status code's first digit */
        c->miss = ch != '2';
        c->header = -1;
        return 0;
    }
    if (ch == "\r\n\r\n"[c->matched]) c->matched++;
    else c->matched = ch == '\r';
    if (ch == '\n') { c->newlines++; c->header = 0; }
    else if (c->newlines > 0 && c->header >= 0) {
        char lower = (char)(ch >= 'A' && ch <= 'Z' ? ch + 32 : ch);
        if (c->header < (int)sizeof length - 1) c->header = lower == length[c->header] ? c->header + 1 : -1;
        else if (ch >= '0' && ch <= '9') c->number = c->number * 10 + (ch - '0');
    }
    if (c->matched < 4) return 0;
    c->matched = 0;
    if (c->number == 0) { c->state = 0; return 1; }
    c->skip = c->number; c->state = 2;
    return 0;
}

static void preload(int fd, long keyspace) {
    static char batch[100 * 128];
    static char in[65536];
    char value[VALUE_BYTES];
    memset(value, 'v', sizeof value);
    for (long first = 0; first < keyspace; first += 100) {
        size_t len = 0;
        long n = keyspace - first < 100 ? keyspace - first : 100;
        for (long k = first; k < first + n; k++) {
            len += (size_t)sprintf(batch + len, "set ref:%0*ld 0 0 %d\r\n", KEY_DIGITS, k, VALUE_BYTES);
            memcpy(batch + len, value, VALUE_BYTES); len += VALUE_BYTES;
            memcpy(batch + len, "\r\n", 2); len += 2;
        }
        write_all(fd, batch, len);
        long stored = 0;
        while (stored < n) {  /* one "STORED\r\n" per set */
            ssize_t r = read(fd, in, sizeof in);
            if (r <= 0) fail("the server closed a connection while keys were stored");
            for (ssize_t i = 0; i < r; i++) if (in[i] == '\n') stored++;
        }
    }
}

int main(int argc, char **argv) {
    if (argc < 10 || argc > 13) {
        fprintf(stderr, "usage: pace_reference HOST PORT RATE CONNECTIONS PIPELINE KEYSPACE WARMUP_S WINDOW_S WINDOWS [busy|sleep [EARLY_US [memcache|redis|http:PATH]]]\n");
        return 2;
    }
    const char *host = argv[1], *port = argv[2];
    long rate = arg(argv[3], "RATE", 1, 10000000);
    int nconns = (int)arg(argv[4], "CONNECTIONS", 1, MAX_CONNECTIONS);
    int pipeline = (int)arg(argv[5], "PIPELINE", 1, MAX_PIPELINE);
    long keyspace = arg(argv[6], "KEYSPACE", 1, 99999999999L);
    long warmup_s = arg(argv[7], "WARMUP_S", 0, 3600);
    long window_s = arg(argv[8], "WINDOW_S", 1, 3600);
    int nwindows = (int)arg(argv[9], "WINDOWS", 1, MAX_WINDOWS);
    int busy = 1;
    if (argc >= 11) {
        if (strcmp(argv[10], "sleep") == 0) busy = 0;
        else if (strcmp(argv[10], "busy") != 0) fail("the mode must be busy or sleep");
    }
    const uint64_t early = argc >= 12 ? (uint64_t)arg(argv[11], "EARLY_US", 0, 1000000) * 1000 : 50000;
    const char *path = "/";
    if (argc == 13) {
        if (strcmp(argv[12], "memcache") == 0) protocol = MEMCACHE;
        else if (strcmp(argv[12], "redis") == 0) protocol = REDIS;
        else if (strncmp(argv[12], "http:", 5) == 0 && argv[12][5] == '/') { protocol = HTTP; path = argv[12] + 5; }
        else fail("the protocol must be memcache, redis or http:PATH");
    }

    prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
    window *windows = calloc((size_t)nwindows, sizeof(window));
    if (!windows) fail("out of memory");
    int ep = epoll_create1(0);
    for (int c = 0; c < nconns; c++) {
        conns[c].fd = connect_to(host, port);
    }
    if (protocol == MEMCACHE) preload(conns[0].fd, keyspace);
    else if (protocol == REDIS) preload_redis(conns[0].fd, keyspace);
    room_capacity = nconns * pipeline;
    for (int slot = 0; slot < pipeline; slot++)
        for (int c = 0; c < nconns; c++) room_push(c);
    for (int c = 0; c < nconns; c++) {
        fcntl(conns[c].fd, F_SETFL, fcntl(conns[c].fd, F_GETFL) | O_NONBLOCK);
        struct epoll_event ev = {.events = EPOLLIN, .data.u32 = (uint32_t)c};
        if (epoll_ctl(ep, EPOLL_CTL_ADD, conns[c].fd, &ev) != 0) fail("epoll_ctl failed");
    }

    const uint64_t window_ns = (uint64_t)window_s * 1000000000u;
    const uint64_t start = now_ns() + 1000000;  /* the first request is due 1 ms from now */
    const uint64_t measured = start + (uint64_t)warmup_s * 1000000000u;
    const uint64_t end = measured + (uint64_t)nwindows * window_ns;
    const uint64_t stop = end + 1000000000u;  /* up to 1 s more for the last replies */
    uint64_t sent = 0, due = start;
    int boundary = 0;               /* windows whose start has been passed */
    uint64_t cpu_mark = 0;
    uint64_t waiting_since = 0;     /* 0: not waiting for room */
    int waiting_behind = 0;
    uint64_t alarm = 0;             /* when to wake for the next send; 0: not set */
    int64_t lead = 20000;           /* how late wake-ups come, learnt as fluxperf learns it */
    int pump = 1;                   /* awake for a reason: send what may leave */
    char request[512];
    size_t request_len, key_at;
    if (protocol == MEMCACHE) {
        request_len = (size_t)sprintf(request, "get ref:%0*d\r\n", KEY_DIGITS, 0);
        key_at = 8;
    } else if (protocol == REDIS) {
        request_len = (size_t)sprintf(request, "*2\r\n$3\r\nGET\r\n$16\r\nref:%0*d\r\n", KEY_DIGITS, 0);
        key_at = request_len - 2 - KEY_DIGITS;
    } else {
        if (strlen(path) > 300) fail("the http path is too long");
        request_len = (size_t)snprintf(request, sizeof request, "GET %s HTTP/1.1\r\nHost: %s\r\n\r\n", path, host);
        key_at = 0;
    }
    static char in[65536];
    struct epoll_event events[256];

    for (;;) {
        uint64_t now = now_ns();
        /* window boundaries: the CPU time of each window */
        while (boundary <= nwindows && now >= measured + (uint64_t)boundary * window_ns) {
            uint64_t cpu = cpu_ns();
            if (boundary > 0) windows[boundary - 1].cpu_ns = cpu - cpu_mark;
            cpu_mark = cpu;
            boundary++;
        }
        if (now >= stop || (due >= end && room_count == room_capacity && now >= end)) break;  /* all sent and answered */
        if (alarm && now >= alarm) {  /* the timer rang: learn how late, a slow moving average */
            lead += ((int64_t)(now - alarm) - lead) / 8;
            if (lead < 0) lead = 0;
            if (lead > MAX_LEAD_NS) lead = MAX_LEAD_NS;
            alarm = 0;
            pump = 1;
        }
        /* send what may leave while a connection has room: what is due, and what is due within
           `early` of now (it shares this wake-up instead of needing its own) */
        while (pump && due < end) {
            if (due > now + early) {  /* a timer for it, set to ring `lead` before */
                uint64_t at = due - (uint64_t)(lead < (int64_t)early ? lead : (int64_t)early);
                if (at < now + MIN_TIMER_NS) at = now + MIN_TIMER_NS;
                if (!alarm || at < alarm) alarm = at;
                break;
            }
            if (room_count == 0) {  /* a reply will pump again */
                if (!waiting_since) { waiting_since = due > now ? due : now; waiting_behind = now > due + BEHIND_NS; }
                break;
            }
            if (waiting_since) {
                if (now > waiting_since && waiting_since >= measured && waiting_since < end) {
                    window *w = &windows[(waiting_since - measured) / window_ns];
                    w->room_ns += now - waiting_since;
                    if (waiting_behind) w->room_behind_ns += now - waiting_since;
                }
                waiting_since = 0;
            }
            connection *c = &conns[room_pop()];
            if (key_at) put_digits(request + key_at, next_random() % (uint64_t)keyspace);
            uint64_t at = now_ns();
            write_all(c->fd, request, request_len);
            if (due >= measured) record(&windows[(due - measured) / window_ns].lag, at > due ? at - due : 0);
            int slot = (c->head + c->inflight) % MAX_PIPELINE;
            c->due[slot] = due;
            c->origin[slot] = at < due ? at : due;  /* an early send is timed from its write */
            c->inflight++;
            sent++;
            due = start + sent * 1000000000u / (uint64_t)rate;
            now = at;
        }
        pump = 0;
        struct timespec timeout = {0, 0};
        if (!busy) {  /* sleep until the alarm, a reply, or the end */
            uint64_t until = alarm ? alarm : now < end ? end : stop;
            uint64_t t = now_ns();
            uint64_t wait = until > t ? until - t : 0;
            timeout.tv_sec = (time_t)(wait / 1000000000u);
            timeout.tv_nsec = (long)(wait % 1000000000u);
        }
        int n = busy ? epoll_wait(ep, events, 256, 0) : epoll_pwait2(ep, events, 256, &timeout, NULL);
        if (n < 0 && errno != EINTR) fail("epoll_wait failed");
        if (n <= 0) continue;
        uint64_t arrived = now_ns();
        for (int e = 0; e < n; e++) {
            connection *c = &conns[events[e].data.u32];
            ssize_t r = read(c->fd, in, sizeof in);
            if (r == 0) fail("the server closed a connection");
            if (r < 0) { if (errno == EAGAIN || errno == EINTR) continue; fail("a read from the server failed"); }
            for (ssize_t i = 0; i < r; i++) {
                char ch = in[i];
                if (protocol != MEMCACHE) {
                    if (!reply_done(c, ch)) continue;
                    c->newlines = c->miss ? 1 : 3;
                } else {
                    if (ch == '\n') c->newlines++;
                    if (ch == "END\r\n"[c->matched]) c->matched++;
                    else c->matched = ch == 'E';
                    if (c->matched < 5) continue;
                }
                /* one reply complete: its connection has room, and the client is awake */
                if (c->inflight == 0) fail("the server sent a reply nobody asked for");
                uint64_t d = c->due[c->head], origin = c->origin[c->head];
                c->head = (c->head + 1) % MAX_PIPELINE;
                c->inflight--;
                if (d >= measured && d < end) {
                    window *w = &windows[(d - measured) / window_ns];
                    record(&w->latency, arrived - origin);
                    w->replies++;
                    if (c->newlines == 1) w->misses++;
                }
                c->matched = 0;
                c->newlines = 0;
                room_push((int)(c - conns));
                pump = 1;
            }
        }
    }

    histogram *lag = calloc(1, sizeof(histogram)), *latency = calloc(1, sizeof(histogram));
    if (!lag || !latency) fail("out of memory");
    uint64_t replies = 0, misses = 0, room_ns = 0, behind_ns = 0, cpu = 0, lag_max = 0;
    for (int i = 0; i < nwindows; i++) {
        window *w = &windows[i];
        uint64_t wmax = quantile(&w->lag, 1.0);
        printf("window %d: %.0f requests/s; send lag p50 %lu p99 %lu p99.9 %lu max %lu us; "
               "latency from the intended send p50 %lu p99 %lu p99.9 %lu us; "
               "waited for a connection with room %.1f ms (%.1f of it once already behind); "
               "%.1f us CPU per request (%.2f cores); misses %lu\n",
               i + 1, (double)w->replies / (double)window_s,
               quantile(&w->lag, 0.5), quantile(&w->lag, 0.99), quantile(&w->lag, 0.999), wmax,
               quantile(&w->latency, 0.5), quantile(&w->latency, 0.99), quantile(&w->latency, 0.999),
               w->room_ns / 1e6, w->room_behind_ns / 1e6,
               w->replies ? w->cpu_ns / 1e3 / (double)w->replies : 0.0, w->cpu_ns / 1e9 / (double)window_s,
               w->misses);
        merge(lag, &w->lag);
        merge(latency, &w->latency);
        replies += w->replies; misses += w->misses; room_ns += w->room_ns; behind_ns += w->room_behind_ns;
        cpu += w->cpu_ns;
        if (wmax > lag_max) lag_max = wmax;
    }
    printf("total: requests=%lu rps=%.2f p50=%lu p99=%lu p999=%lu cpu_us_per_req=%.3f lag_p50=%lu lag_p99=%lu "
           "lag_max=%lu room_ms=%.1f room_behind_ms=%.1f misses=%lu win_cores=%.2f\n",
           replies, (double)replies / (double)(window_s * nwindows),
           quantile(latency, 0.5), quantile(latency, 0.99), quantile(latency, 0.999),
           replies ? cpu / 1e3 / (double)replies : 0.0, quantile(lag, 0.5), quantile(lag, 0.99), lag_max,
           room_ns / 1e6, behind_ns / 1e6, misses, cpu / 1e9 / (double)(window_s * nwindows));
    return 0;
}
