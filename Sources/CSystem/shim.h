// System headers Swift's Glibc module does not expose: epoll and eventfd on Linux.
#ifndef PARTYLINE_CSYSTEM_SHIM_H
#define PARTYLINE_CSYSTEM_SHIM_H
#ifdef __linux__
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <netinet/tcp.h>
#include <malloc.h>
#endif
#endif
