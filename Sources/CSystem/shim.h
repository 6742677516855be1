// System headers Swift's Glibc module does not expose: epoll, eventfd, the kernel's TCP round trip, and the
// namespace and TUN calls of the test network (Sources/DelayLine) — on Linux; empty on Darwin.
#ifndef PARTYLINE_CSYSTEM_SHIM_H
#define PARTYLINE_CSYSTEM_SHIM_H
#ifdef __linux__
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/ioctl.h>
#include <netinet/tcp.h>
#include <malloc.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

/// The head of Linux's `struct tcp_info` (linux/tcp.h) up to `tcpi_min_rtt`, which glibc's copy lacks; the kernel
/// only ever appends fields, and fills in as much as the caller's buffer holds.
struct partyline_tcp_info {
    uint8_t state, ca_state, retransmits, probes, backoff, options, window_scales, flags;
    uint32_t rto, ato, snd_mss, rcv_mss, unacked, sacked, lost, retrans, fackets;
    uint32_t last_data_sent, last_ack_sent, last_data_recv, last_ack_recv;
    uint32_t pmtu, rcv_ssthresh, rtt, rttvar, snd_ssthresh, snd_cwnd, advmss, reordering;
    uint32_t rcv_rtt, rcv_space, total_retrans;
    uint64_t pacing_rate, max_pacing_rate, bytes_acked, bytes_received;
    uint32_t segs_out, segs_in, notsent_bytes, min_rtt;
};
_Static_assert(offsetof(struct partyline_tcp_info, rtt) == 68, "tcpi_rtt moved");
_Static_assert(offsetof(struct partyline_tcp_info, min_rtt) == 148, "tcpi_min_rtt moved");

/// The kernel's round trip of TCP socket `fd` in µs: smoothed, its variation, and the windowed minimum
/// (UINT32_MAX when the kernel has no sample or is older than Linux 4.6). Returns 0, or -1 with errno set.
static inline int partyline_tcp_round_trip(int fd, uint32_t *smoothed, uint32_t *variation, uint32_t *minimum) {
    struct partyline_tcp_info info;
    memset(&info, 0, sizeof info);
    socklen_t length = sizeof info;
    if (getsockopt(fd, SOL_TCP, TCP_INFO, &info, &length) != 0) return -1;
    *smoothed = info.rtt;
    *variation = info.rttvar;
    *minimum = length >= offsetof(struct partyline_tcp_info, min_rtt) + sizeof info.min_rtt ? info.min_rtt : UINT32_MAX;
    return 0;
}

// Declared here because glibc shows them only to _GNU_SOURCE code, which Swift's Glibc module is not.
extern int setns(int fd, int nstype);
extern int ppoll(struct pollfd *fds, nfds_t count, const struct timespec *timeout, const sigset_t *mask);

/// Moves the calling thread into the network namespace open at `fd` (CLONE_NEWNET). Returns 0, or -1 with errno.
static inline int partyline_enter_network_namespace(int fd) { return setns(fd, 0x40000000); }

/// Attaches `fd` (an open /dev/net/tun) to a new TUN device `name` in the calling thread's network namespace:
/// raw IP packets, no packet-information header. Returns 0, or -1 with errno set.
static inline int partyline_attach_tun(int fd, const char *name) {
    struct {
        char name[16];
        short flags;
        char padding[22];
    } request;  // struct ifreq's name and flags (<net/if.h> clashes with the kernel's headers)
    memset(&request, 0, sizeof request);
    strncpy(request.name, name, sizeof request.name - 1);
    request.flags = 0x0001 | 0x1000;  // IFF_TUN | IFF_NO_PI
    return ioctl(fd, 0x400454ca, &request);  // TUNSETIFF = _IOW('T', 202, int)
}

/// Waits up to `nanoseconds` (negative: forever) for `fds`; poll's result, with nanosecond timeouts.
static inline int partyline_poll_nanoseconds(struct pollfd *fds, nfds_t count, int64_t nanoseconds) {
    if (nanoseconds < 0) return ppoll(fds, count, NULL, NULL);
    struct timespec timeout = { (time_t)(nanoseconds / 1000000000), (long)(nanoseconds % 1000000000) };
    return ppoll(fds, count, &timeout, NULL);
}
#endif
#endif
