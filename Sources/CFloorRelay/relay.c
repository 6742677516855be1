// The floor for partyline-bench, in plain C: the least any server must do to fan a line out to every connection.
// One thread, non-blocking sockets, edge-free level-triggered epoll, no parsing beyond finding the last newline of
// what was read. Bytes a socket does not take at once wait in that connection's buffer until it is writable.
#define _GNU_SOURCE
#include "floor_relay.h"

#include <stdio.h>

#ifdef __linux__
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

typedef struct {
    char *bytes;
    size_t length;
    size_t capacity;
} buffer_t;

typedef struct {
    int fd;
    int slot;            // index in `order`
    int watching_writes;
    buffer_t partial;    // the start of a line not complete yet
    buffer_t pending;    // output the socket did not take yet
    size_t pending_sent; // how much of `pending` went out
} peer_t;

static peer_t **peers;   // by descriptor
static int peer_limit;
static int *order;       // descriptors of every connection
static int order_count;
static int epoll_fd;

static void append(buffer_t *buffer, const char *bytes, size_t length) {
    if (buffer->length + length > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 4096;
        while (capacity < buffer->length + length) capacity *= 2;
        buffer->bytes = realloc(buffer->bytes, capacity);
        if (!buffer->bytes) abort();
        buffer->capacity = capacity;
    }
    memcpy(buffer->bytes + buffer->length, bytes, length);
    buffer->length += length;
}

static void watch(peer_t *peer, int writes) {
    if (peer->watching_writes == writes) return;
    peer->watching_writes = writes;
    struct epoll_event event = {.events = EPOLLIN | (writes ? EPOLLOUT : 0), .data.fd = peer->fd};
    epoll_ctl(epoll_fd, EPOLL_CTL_MOD, peer->fd, &event);
}

static void write_to(peer_t *peer, const char *bytes, size_t length) {
    if (peer->pending.length == peer->pending_sent) {
        peer->pending.length = peer->pending_sent = 0;
        ssize_t written = send(peer->fd, bytes, length, MSG_NOSIGNAL);
        if (written == (ssize_t)length) return;
        size_t done = written > 0 ? (size_t)written : 0;
        append(&peer->pending, bytes + done, length - done);
    } else {
        append(&peer->pending, bytes, length);
    }
    watch(peer, 1);
}

static void flush_peer(peer_t *peer) {
    while (peer->pending_sent < peer->pending.length) {
        ssize_t written = send(peer->fd, peer->pending.bytes + peer->pending_sent,
                               peer->pending.length - peer->pending_sent, MSG_NOSIGNAL);
        if (written <= 0) return;
        peer->pending_sent += (size_t)written;
    }
    peer->pending.length = peer->pending_sent = 0;
    watch(peer, 0);
}

static void drop(peer_t *peer) {
    epoll_ctl(epoll_fd, EPOLL_CTL_DEL, peer->fd, NULL);
    close(peer->fd);
    int last = order[--order_count];
    if (last != peer->fd) {
        order[peer->slot] = last;
        peers[last]->slot = peer->slot;
    }
    peers[peer->fd] = NULL;
    free(peer->partial.bytes);
    free(peer->pending.bytes);
    free(peer);
}

static void relay(const char *bytes, size_t length) {
    for (int index = 0; index < order_count; index++) write_to(peers[order[index]], bytes, length);
}

int partyline_floor_relay_run(void) {
    signal(SIGPIPE, SIG_IGN);
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0) {
        limit.rlim_cur = limit.rlim_max;
        setrlimit(RLIMIT_NOFILE, &limit);
    }
    peer_limit = limit.rlim_cur > 1 << 20 ? 1 << 20 : (int)limit.rlim_cur;
    peers = calloc((size_t)peer_limit, sizeof(peer_t *));
    order = calloc((size_t)peer_limit, sizeof(int));
    int listener = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    int one = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = 0};
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t size = sizeof address;
    if (!peers || !order || listener < 0 || bind(listener, (struct sockaddr *)&address, sizeof address) != 0
        || listen(listener, 4096) != 0 || getsockname(listener, (struct sockaddr *)&address, &size) != 0) {
        fprintf(stderr, "C floor relay: cannot listen: %s\n", strerror(errno));
        return 2;
    }
    epoll_fd = epoll_create1(EPOLL_CLOEXEC);
    struct epoll_event event = {.events = EPOLLIN, .data.fd = listener};
    epoll_ctl(epoll_fd, EPOLL_CTL_ADD, listener, &event);
    event.data.fd = STDIN_FILENO;
    epoll_ctl(epoll_fd, EPOLL_CTL_ADD, STDIN_FILENO, &event);
    printf("ready port=%d\n", ntohs(address.sin_port));
    fflush(stdout);

    static const char greeting[] = "{\"type\":\"welcome\",\"room\":\"FLOOR\"}\n";
    enum { buffer_size = 64 * 1024, batch = 1024 };
    static char input[buffer_size];
    static struct epoll_event ready[batch];
    for (;;) {
        int count = epoll_wait(epoll_fd, ready, batch, -1);
        if (count < 0) {
            if (errno == EINTR) continue;
            return 2;
        }
        for (int index = 0; index < count; index++) {
            int fd = ready[index].data.fd;
            if (fd == STDIN_FILENO) {
                char byte;
                if (read(STDIN_FILENO, &byte, 1) <= 0) exit(0);
                continue;
            }
            if (fd == listener) {
                int accepted;
                while ((accepted = accept4(listener, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0) {
                    if (accepted >= peer_limit) {
                        close(accepted);
                        continue;
                    }
                    setsockopt(accepted, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                    peer_t *peer = calloc(1, sizeof(peer_t));
                    peer->fd = accepted;
                    peer->slot = order_count;
                    peers[accepted] = peer;
                    order[order_count++] = accepted;
                    struct epoll_event added = {.events = EPOLLIN, .data.fd = accepted};
                    epoll_ctl(epoll_fd, EPOLL_CTL_ADD, accepted, &added);
                    write_to(peer, greeting, sizeof greeting - 1);
                }
                continue;
            }
            peer_t *peer = fd < peer_limit ? peers[fd] : NULL;
            if (!peer) continue;
            if (ready[index].events & EPOLLOUT) flush_peer(peer);
            if (!(ready[index].events & (EPOLLIN | EPOLLHUP | EPOLLERR))) continue;
            ssize_t got = recv(fd, input, buffer_size, 0);
            if (got == 0 || (got < 0 && errno != EAGAIN && errno != EINTR)) {
                drop(peer);
                continue;
            }
            if (got <= 0) continue;
            char *last = memrchr(input, '\n', (size_t)got);
            if (!last) {
                append(&peer->partial, input, (size_t)got);
                continue;
            }
            size_t complete = (size_t)(last - input) + 1;
            if (peer->partial.length == 0) {
                relay(input, complete);  // the usual case: whole lines in one read, relayed as they came
            } else {
                append(&peer->partial, input, complete);
                buffer_t lines = peer->partial;
                peer->partial = (buffer_t){0};
                relay(lines.bytes, lines.length);
                free(lines.bytes);
            }
            if (peers[fd] == peer && complete < (size_t)got) {
                append(&peer->partial, input + complete, (size_t)got - complete);
            }
        }
    }
}

#else

int partyline_floor_relay_run(void) {
    fprintf(stderr, "The C floor relay needs Linux (epoll).\n");
    return 2;
}

#endif
