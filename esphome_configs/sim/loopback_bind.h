#pragma once
// Simulator only (linn-remote-sim.yaml links with -Wl,--wrap=bind): every socket the host build
// binds to the "any" address is bound to loopback instead, so the simulator is never reachable
// from the network. If LINN_SIM_API_PORT is set, a bind to the compiled-in API port (6053) uses
// that port instead, so tests can pick a free port without rebuilding.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <cstdlib>
#include <cstring>

extern "C" int __real_bind(int fd, const struct sockaddr *addr, socklen_t len);

extern "C" int __wrap_bind(int fd, const struct sockaddr *addr, socklen_t len) {
  const char *port_env = std::getenv("LINN_SIM_API_PORT");  // NOLINT(concurrency-mt-unsafe)
  uint16_t port_override = port_env != nullptr ? static_cast<uint16_t>(std::atoi(port_env)) : 0;
  if (addr != nullptr && addr->sa_family == AF_INET && len >= sizeof(sockaddr_in)) {
    sockaddr_in a;
    std::memcpy(&a, addr, sizeof a);
    if (a.sin_addr.s_addr == htonl(INADDR_ANY))
      a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (port_override != 0 && ntohs(a.sin_port) == 6053)
      a.sin_port = htons(port_override);
    return __real_bind(fd, reinterpret_cast<sockaddr *>(&a), sizeof a);
  }
  if (addr != nullptr && addr->sa_family == AF_INET6 && len >= sizeof(sockaddr_in6)) {
    sockaddr_in6 a;
    std::memcpy(&a, addr, sizeof a);
    if (std::memcmp(&a.sin6_addr, &in6addr_any, sizeof in6addr_any) == 0)
      a.sin6_addr = in6addr_loopback;
    if (port_override != 0 && ntohs(a.sin6_port) == 6053)
      a.sin6_port = htons(port_override);
    return __real_bind(fd, reinterpret_cast<sockaddr *>(&a), sizeof a);
  }
  return __real_bind(fd, addr, len);
}
