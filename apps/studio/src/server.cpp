// The studio's HTTP server (studio.hpp): Boost.Beast over blocking sockets, a thread a
// connection. It serves one user's page, so simplicity wins over throughput; what it
// must get right is refusing what is not that user's: a request without the token, a
// body over the limit, a path out of the workspace (api.cpp).
#include <sys/socket.h>

#include <atomic>
#include <list>
#include <mutex>
#include <random>
#include <set>
#include <thread>

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "api.hpp"
#include "jourdain/errors.hpp"
#include "jourdain/studio/studio.hpp"

namespace jourdain::studio {

namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace asio = boost::asio;
using tcp = asio::ip::tcp;

constexpr std::size_t max_body_bytes = 16u << 20;  // a netlist of 10^5 components is a few MiB

std::string random_token() {
  std::random_device device;
  std::string token;
  const char* hex = "0123456789abcdef";
  for (int i = 0; i < 40; ++i) token += hex[device() % 16];
  return token;
}

// %XX escapes decoded; in a query, '+' is a space too.
std::string percent_decoded(std::string_view s, bool query = false) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size()) {
      const std::string hex(s.substr(i + 1, 2));
      char* end = nullptr;
      const long v = std::strtol(hex.c_str(), &end, 16);
      if (end == hex.c_str() + 2) {
        out += static_cast<char>(v);
        i += 2;
        continue;
      }
    }
    out += query && s[i] == '+' ? ' ' : s[i];
  }
  return out;
}

Request request_of(const http::request<http::string_body>& message) {
  Request r;
  r.method = std::string(message.method_string());
  const std::string_view target(message.target().data(), message.target().size());
  const auto q = target.find('?');
  r.path = percent_decoded(target.substr(0, q));
  if (q != std::string_view::npos) {
    std::string_view query = target.substr(q + 1);
    while (!query.empty()) {
      const auto amp = query.find('&');
      const std::string_view pair = query.substr(0, amp);
      const auto eq = pair.find('=');
      r.query[percent_decoded(pair.substr(0, eq), true)] =
          eq == std::string_view::npos ? "" : percent_decoded(pair.substr(eq + 1), true);
      query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    }
  }
  r.body = message.body();
  return r;
}

// Equal strings, in a time that does not tell how much of a guess was right.
bool same_token(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  unsigned char d = 0;
  for (std::size_t i = 0; i < a.size(); ++i) d |= static_cast<unsigned char>(a[i] ^ b[i]);
  return d == 0;
}

class Server {
 public:
  Server(Api& api, std::string token) : api_(api), token_(std::move(token)) {}

  void connection(tcp::socket socket) {
    beast::error_code ec;
    beast::flat_buffer buffer;
    for (;;) {
      http::request_parser<http::string_body> parser;
      parser.body_limit(max_body_bytes);
      parser.header_limit(64 * 1024);
      http::read(socket, buffer, parser, ec);
      if (ec == http::error::body_limit) {
        reply(socket, 11, false, Response{413, "application/json", R"({"error": "the request is larger than 16 MiB"})"});
        break;
      }
      if (ec) break;
      const auto& message = parser.get();
      const bool keep_alive = message.keep_alive();
      Request request = request_of(message);
      Response response;
      const auto header = message.find("X-Jourdain-Token");
      const std::string given = header != message.end() ? std::string(header->value())
                                : request.query.count("token") ? request.query["token"]
                                                               : std::string();
      // A browser asks for an icon on its own, without the token: nothing to refuse.
      if (request.method == "GET" && request.path == "/favicon.ico")
        response = {204, "image/x-icon", ""};
      else if (!same_token(given, token_))
        response = {403, "application/json", R"({"error": "this request carries no valid token: open the address the studio printed"})"};
      else
        response = api_.handle(request);
      if (!reply(socket, message.version(), keep_alive, response) || !keep_alive) break;
    }
    socket.shutdown(tcp::socket::shutdown_both, ec);
  }

 private:
  static bool reply(tcp::socket& socket, unsigned version, bool keep_alive, const Response& r) {
    http::response<http::string_body> out{static_cast<http::status>(r.status), version};
    out.set(http::field::server, "Jourdain Studio");
    out.set(http::field::content_type, r.content_type);
    out.set(http::field::cache_control, "no-store");
    out.set("X-Content-Type-Options", "nosniff");
    // A workspace file (a report) runs as a page of no origin: its scripts cannot reach
    // the studio's requests or its address (and token).
    if (r.sandboxed) out.set("Content-Security-Policy", "sandbox allow-scripts");
    else out.set("X-Frame-Options", "SAMEORIGIN");
    out.keep_alive(keep_alive);
    out.body() = r.body;
    out.prepare_payload();
    beast::error_code ec;
    http::write(socket, out, ec);
    return !ec;
  }

  Api& api_;
  std::string token_;
};

}  // namespace

int serve(Registry& registry, const StudioOptions& options) {
  Runs runs(options.program, options.run_arguments);
  Workspace workspace(options.workspace);
  std::string initial;
  if (!options.initial.empty())
    initial = workspace.relative(workspace.resolve(std::filesystem::absolute(options.initial).lexically_relative(workspace.root()).generic_string()));
  Api api(registry, workspace, options.trust, runs, initial);
  const std::string token = options.token.empty() ? random_token() : options.token;
  Server server(api, token);

  asio::io_context io;
  tcp::acceptor acceptor(io);
  beast::error_code ec;
  const tcp::endpoint endpoint(asio::ip::make_address(options.host, ec), options.port);
  if (ec) throw InputError({"", "--host", "", ""}, "'" + options.host + "' is no IP address");
  acceptor.open(endpoint.protocol(), ec);
  if (!ec) acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) acceptor.bind(endpoint, ec);
  if (!ec) acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec)
    throw Error("studio: cannot listen on " + options.host + ":" + std::to_string(options.port) + ": " + ec.message() +
                " (another program there? --port 0 takes any free port)");
  acceptor.non_blocking(true);
  const auto bound = acceptor.local_endpoint();
  const std::string host = bound.address().is_v6() ? "[" + bound.address().to_string() + "]" : bound.address().to_string();
  if (options.listening) options.listening("http://" + host + ":" + std::to_string(bound.port()) + "/?token=" + token);

  // Connections, each on a thread; their sockets are shut down when the server stops so
  // that a browser's idle keep-alive connection does not hold it open.
  struct Connection {
    std::thread thread;
    std::atomic<bool> done{false};
    int fd = -1;
  };
  std::list<Connection> connections;
  std::mutex connections_mutex;
  while (!(options.stop_requested && options.stop_requested())) {
    tcp::socket socket(io);
    acceptor.accept(socket, ec);
    if (ec == asio::error::would_block || ec == asio::error::try_again) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      std::lock_guard lock(connections_mutex);
      connections.remove_if([](Connection& c) {
        if (!c.done) return false;
        c.thread.join();
        return true;
      });
      continue;
    }
    if (ec) continue;
    socket.non_blocking(false, ec);
    std::lock_guard lock(connections_mutex);
    Connection& c = connections.emplace_back();
    c.fd = socket.native_handle();
    c.thread = std::thread([&server, &c, s = std::move(socket)]() mutable {
      server.connection(std::move(s));
      c.done = true;
    });
  }
  acceptor.close(ec);
  {
    std::lock_guard lock(connections_mutex);
    for (auto& c : connections)
      if (!c.done) ::shutdown(c.fd, SHUT_RDWR);
  }
  for (auto& c : connections) c.thread.join();
  runs.stop_all();
  return 0;
}

}  // namespace jourdain::studio
