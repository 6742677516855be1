#ifndef PARTYLINE_FLOOR_RELAY_H
#define PARTYLINE_FLOOR_RELAY_H

/// The bench's C floor relay (Linux, epoll): listens on 127.0.0.1 on a free port, prints `ready port=P` on
/// stdout, greets each connection with one line, and writes every complete line a connection sends to every
/// connection, the sender included, without reading it. Returns only on failure (2); exits 0 when stdin closes.
int partyline_floor_relay_run(void);

#endif
