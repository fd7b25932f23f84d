// What the studio's page asks of the server (apps/studio/README.md, "HTTP API"), apart
// from HTTP itself (server.cpp): requests in, answers out, so that it is tested without
// sockets.
#pragma once

#include <map>
#include <mutex>
#include <string>

#include <nlohmann/json.hpp>

#include "jourdain/registry.hpp"
#include "jourdain/session/trust.hpp"
#include "runs.hpp"
#include "workspace.hpp"

namespace jourdain::studio {

struct Request {
  std::string method;  // GET, POST
  std::string path;    // "/api/netlist", without the query
  std::map<std::string, std::string> query;
  std::string body;
};

struct Response {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  bool sandboxed = false;  // a workspace file: served as a page of no origin (CSP sandbox)
};

class Api {
 public:
  Api(Registry& registry, Workspace workspace, session::Trust trust, Runs& runs, std::string initial);

  // The answer to an authenticated request.
  Response handle(const Request& request);

 private:
  Response page() const;
  nlohmann::json workspace() const;
  nlohmann::json types();
  nlohmann::json configure(const nlohmann::json& body);
  nlohmann::json netlist(const std::string& path);
  nlohmann::json schematic_of(const nlohmann::json& body);
  nlohmann::json check(const nlohmann::json& body);
  nlohmann::json save(const nlohmann::json& body);
  nlohmann::json run(const nlohmann::json& body);
  Response file(const std::string& path) const;

  Registry& registry_;
  std::mutex registry_mutex_;  // the registry loads plugins as netlists name them: one request at a time
  Workspace workspace_;
  session::Trust trust_;
  Runs& runs_;
  std::string initial_;
  nlohmann::json types_;  // the palette, described once
};

}  // namespace jourdain::studio
