/*
 * Where libmemcached itself sends keys: for each key read from stdin (one per line), the index
 * (0-based, in the order given) of the server memcached_server_by_key names. Nothing connects.
 *
 *   libmemcached_placement ketama|modula HOST:PORT:WEIGHT ... < keys
 *
 * ketama: MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED (consistent hashing, MD5, weighted points).
 * modula: libmemcached's defaults (modula over the one-at-a-time hash).
 * Built and run by KetamaLibmemcachedTest (engine tests); needs libmemcached-dev.
 */
#include <libmemcached/memcached.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s ketama|modula HOST:PORT:WEIGHT ...\n", argv[0]);
        return 2;
    }
    memcached_st *mc = memcached_create(NULL);
    if (strcmp(argv[1], "ketama") == 0) {
        memcached_behavior_set(mc, MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED, 1);
    }
    int servers = argc - 2;
    char hosts[64][256];
    unsigned ports[64];
    for (int i = 0; i < servers && i < 64; i++) {
        unsigned weight;
        char *spec = argv[i + 2];
        char *last = strrchr(spec, ':');
        *last = '\0';
        weight = (unsigned) atoi(last + 1);
        char *port = strrchr(spec, ':');
        *port = '\0';
        ports[i] = (unsigned) atoi(port + 1);
        snprintf(hosts[i], sizeof hosts[i], "%s", spec);
        if (memcached_server_add_with_weight(mc, hosts[i], (in_port_t) ports[i], weight) != MEMCACHED_SUCCESS) {
            fprintf(stderr, "cannot add %s:%u\n", hosts[i], ports[i]);
            return 1;
        }
    }
    char key[4096];
    while (fgets(key, sizeof key, stdin) != NULL) {
        size_t n = strcspn(key, "\n");
        key[n] = '\0';
        memcached_return_t rc;
        const memcached_instance_st *s = memcached_server_by_key(mc, key, n, &rc);
        int found = -1;
        for (int i = 0; s != NULL && i < servers; i++) {
            if (strcmp(memcached_server_name(s), hosts[i]) == 0 && memcached_server_port(s) == ports[i]) {
                found = i;
                break;
            }
        }
        printf("%d\n", found);
    }
    memcached_free(mc);
    return 0;
}
