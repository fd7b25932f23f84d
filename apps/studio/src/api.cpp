// The studio's requests (api.hpp; apps/studio/README.md lists them).
#include "api.hpp"

#include <fstream>
#include <sstream>

#include "jourdain/descriptor.hpp"
#include "jourdain/document.hpp"
#include "jourdain/errors.hpp"
#include "jourdain/page/page.hpp"
#include "jourdain/schematic.hpp"
#include "jourdain/session/session.hpp"

namespace jourdain::studio {

namespace {

using nlohmann::json;

// A request the server refuses, with the HTTP status that says why.
struct Refusal {
  int status;
  std::string message;
};

json parse_body(const std::string& body) {
  try {
    json j = json::parse(body);
    if (!j.is_object()) throw Refusal{400, "the request's body must be a JSON object"};
    return j;
  } catch (const json::exception& e) {
    throw Refusal{400, std::string("the request's body is no JSON: ") + e.what()};
  }
}

std::string text_field(const json& body, const char* key) {
  if (!body.contains(key) || !body[key].is_string()) throw Refusal{400, std::string("\"") + key + "\" (a string) is required"};
  return body[key].get<std::string>();
}

std::string read_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Refusal{404, "no such file: " + file.string()};
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string content_type(const std::filesystem::path& file) {
  const std::string ext = file.extension().string();
  if (ext == ".html") return "text/html; charset=utf-8";
  if (ext == ".json") return "application/json";
  if (ext == ".csv") return "text/csv; charset=utf-8";
  if (ext == ".svg") return "image/svg+xml";
  if (ext == ".png") return "image/png";
  return "text/plain; charset=utf-8";
}

}  // namespace

Api::Api(Registry& registry, Workspace workspace, session::Trust trust, Runs& runs, std::string initial)
    : registry_(registry), workspace_(std::move(workspace)), trust_(std::move(trust)), runs_(runs), initial_(std::move(initial)) {}

Response Api::handle(const Request& request) {
  const auto answer = [](const json& j) { return Response{200, "application/json", j.dump(-1, ' ', false, json::error_handler_t::replace)}; };
  try {
    const std::string& p = request.path;
    const bool get = request.method == "GET", post = request.method == "POST";
    if (get && (p == "/" || p == "/index.html")) return page();
    // ELK, fetched by the page only when a level has components to lay out (1.6 MB that
    // a laid-out netlist never needs).
    if (get && p == "/assets/elk.js") return {200, "text/javascript; charset=utf-8", std::string(page::layout_script())};
    if (get && p == "/api/workspace") return answer(workspace());
    if (get && p == "/api/types") return answer(types());
    if (get && p == "/api/netlist") {
      const auto it = request.query.find("path");
      if (it == request.query.end()) throw Refusal{400, "?path= is required"};
      return answer(netlist(it->second));
    }
    if (get && p.starts_with("/files/")) return file(p.substr(7));
    if (get && p.starts_with("/api/runs/")) {
      const json s = runs_.status(p.substr(10));
      if (s.is_null()) throw Refusal{404, "no run " + p.substr(10)};
      json out = s;
      // The run's page once it has ended: a run's or linearization's report.html, a
      // sweep's sweep.html.
      const std::filesystem::path folder = s["output"].get<std::string>();
      const std::filesystem::path page = folder / (s["analysis"] == "sweep" ? "sweep.html" : "report.html");
      out["output"] = workspace_.relative(folder);
      std::error_code ec;
      out["report"] = s["state"] != "running" && std::filesystem::exists(page, ec) ? json(workspace_.relative(page)) : json(nullptr);
      return answer(out);
    }
    if (post && p.starts_with("/api/runs/") && p.ends_with("/cancel")) {
      const std::string id = p.substr(10, p.size() - 10 - 7);
      if (!runs_.cancel(id)) throw Refusal{404, "no run " + id};
      return answer(runs_.status(id));
    }
    if (post) {
      const json body = parse_body(request.body);
      if (p == "/api/configure") return answer(configure(body));
      if (p == "/api/schematic") return answer(schematic_of(body));
      if (p == "/api/check") return answer(check(body));
      if (p == "/api/save") return answer(save(body));
      if (p == "/api/run") return answer(run(body));
    }
    throw Refusal{404, "no such request: " + request.method + " " + p};
  } catch (const Refusal& r) {
    return {r.status, "application/json", json{{"error", r.message}}.dump(-1, ' ', false, json::error_handler_t::replace)};
  } catch (const Forbidden& e) {
    return {403, "application/json", json{{"error", e.what()}}.dump(-1, ' ', false, json::error_handler_t::replace)};
  } catch (const InputError& e) {
    return {400, "application/json", json{{"error", e.what()}}.dump(-1, ' ', false, json::error_handler_t::replace)};
  } catch (const std::exception& e) {
    return {500, "application/json", json{{"error", e.what()}}.dump(-1, ' ', false, json::error_handler_t::replace)};
  }
}

Response Api::page() const {
  const json data = {{"name", "Jourdain Studio"}, {"workspace", workspace_.root().string()}, {"initial", initial_}};
  return {200, "text/html; charset=utf-8", page::render(page::Kind::Studio, data)};
}

json Api::workspace() const {
  return {{"root", workspace_.root().string()},
          {"files", workspace_.netlists()},
          {"initial", initial_.empty() ? json(nullptr) : json(initial_)}};
}

json Api::types() {
  std::lock_guard lock(registry_mutex_);
  // Described once, and again when a netlist's plugins (loaded by a check, with the
  // user's consent) have added types.
  const auto all = registry_.all();
  if (types_.is_null() || types_["types"].size() != all.size()) {
    json list = json::array();
    for (const ComponentType* t : all) {
      json d = describe_type(*t, &registry_);
      const auto dot = t->name.find('.');
      d["library"] = dot == std::string::npos ? "" : t->name.substr(0, dot);
      list.push_back(std::move(d));
    }
    types_ = {{"types", std::move(list)}};
  }
  return types_;
}

json Api::configure(const json& body) {
  const std::string type = text_field(body, "type");
  std::lock_guard lock(registry_mutex_);
  const ComponentType* t = registry_.find(type);
  if (!t) throw Refusal{400, "no component type '" + type + "'"};
  const json params = body.contains("params") ? body["params"] : json::object();
  if (!params.is_object()) throw Refusal{400, "\"params\" must be an object"};
  return describe_type(*t, &registry_, params);  // InputError (400) for values it refuses
}

json Api::netlist(const std::string& path) {
  const std::filesystem::path file = workspace_.resolve(path);
  const NetlistDocument document = NetlistDocument::read(file);
  std::lock_guard lock(registry_mutex_);
  return {{"path", workspace_.relative(file)},
          {"text", document.source()},
          {"schematic", schematic(document.root(), file, registry_)}};
}

json Api::schematic_of(const json& body) {
  const std::filesystem::path file = workspace_.resolve(text_field(body, "path"));
  const NetlistDocument document = NetlistDocument::parse(text_field(body, "text"), file);
  std::lock_guard lock(registry_mutex_);
  return {{"schematic", schematic(document.root(), file, registry_)}};
}

json Api::check(const json& body) {
  const std::filesystem::path file = workspace_.resolve(text_field(body, "path"));
  const std::string text = text_field(body, "text");
  std::lock_guard lock(registry_mutex_);
  return session::check_text(text, file, registry_, trust_).to_json(workspace_.relative(file));
}

json Api::save(const json& body) {
  const std::filesystem::path file = workspace_.resolve(text_field(body, "path"));
  if (file.extension() != ".json") throw Refusal{400, "a netlist is saved as a .json file"};
  std::error_code ec;
  if (!std::filesystem::is_directory(file.parent_path(), ec))
    throw Refusal{400, "no folder " + workspace_.relative(file.parent_path()) + " in the workspace"};
  const NetlistDocument edited = NetlistDocument::parse(text_field(body, "text"), file);
  const bool exists = std::filesystem::exists(file, ec);
  if (!exists) {
    if (body.contains("base") && body["base"].is_string())
      throw Refusal{409, workspace_.relative(file) + " was deleted since it was opened: save again to write it anew"};
    const std::string text = edited.text();
    write_text_file(file.string(), text);
    return {{"written", true}, {"text", text}};
  }
  const std::string current = read_file(file);
  // A hand edit made while the page had the file open is not overwritten unseen.
  if (!body.contains("base") || !body["base"].is_string() || body["base"].get<std::string>() != current)
    throw Refusal{409, workspace_.relative(file) + " changed on disk since it was opened (or exists already): "
                                                  "reload it, or save under another name"};
  NetlistDocument on_disk = NetlistDocument::parse(current, file);
  // Unchanged (the same values; the order of an object's keys means nothing): the file
  // stays as it is, byte for byte (its own spacing, its comments).
  if (json(on_disk.root()) == json(edited.root())) return {{"written", false}, {"text", current}};
  // Changed: the canonical text, with the spellings of the numbers that kept their value.
  on_disk.root() = edited.root();
  const std::string text = on_disk.text();
  write_text_file(file.string(), text);
  return {{"written", true}, {"text", text}};
}

json Api::run(const json& body) {
  const std::filesystem::path file = workspace_.resolve(text_field(body, "path"));
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) throw Refusal{404, "no netlist " + workspace_.relative(file) + ": save it first"};
  RunRequest request;
  request.analysis = body.value("analysis", std::string("run"));
  if (request.analysis != "run" && request.analysis != "linearize" && request.analysis != "sweep")
    throw Refusal{400, "\"analysis\" is \"run\", \"linearize\" or \"sweep\""};
  request.netlist = file;
  // A sweep's folder beside the runs' (its rows.jsonl resumes the same study).
  request.output = workspace_.root() / session::default_output_folder(file.stem().string() +
                                                                      (request.analysis == "sweep" ? "_sweep" : ""));
  if (request.analysis == "sweep") {
    // Strings as `jourdain sweep --param/--output` take them; the sweep checks what they say.
    const auto strings = [&](const char* key) {
      std::vector<std::string> out;
      if (!body.contains(key)) return out;
      if (!body[key].is_array()) throw Refusal{400, std::string("\"") + key + "\" must be a list of strings"};
      for (const json& item : body[key]) {
        if (!item.is_string() || item.get<std::string>().empty())
          throw Refusal{400, std::string("\"") + key + "\" must be a list of strings"};
        out.push_back(item.get<std::string>());
      }
      return out;
    };
    request.params = strings("params");
    request.outputs = strings("outputs");
    if (request.params.empty()) throw Refusal{400, "a sweep needs a parameter: \"params\": [\"component.parameter=VALUES\"]"};
    for (const auto& p : request.params)
      if (p.find('=') == std::string::npos) throw Refusal{400, "sweep parameter '" + p + "': expected NAME=VALUES"};
    request.zip = body.value("zip", false);
  }
  if (body.contains("t_end") && !body["t_end"].is_null()) {
    if (!body["t_end"].is_number()) throw Refusal{400, "\"t_end\" must be a number of seconds"};
    request.t_end = body["t_end"].get<double>();
  }
  std::filesystem::create_directories(request.output.parent_path(), ec);
  return {{"id", runs_.start(request)}, {"output", workspace_.relative(request.output)}};
}

Response Api::file(const std::string& path) const {
  const std::filesystem::path f = workspace_.resolve(path);
  std::error_code ec;
  if (!std::filesystem::is_regular_file(f, ec)) throw Refusal{404, "no file " + path + " in the workspace"};
  Response r{200, content_type(f), read_file(f)};
  r.sandboxed = true;
  return r;
}

}  // namespace jourdain::studio
