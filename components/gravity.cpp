// world.gravity (gravity.hpp).
#include "jourdain/components/gravity.hpp"

#include "jourdain/netlist.hpp"

namespace jourdain {

namespace {

// [gx, gy], each a number (m/s²) or a string with a unit; throws InputError at `where`.
Eigen::Vector2d read_gravity(const nlohmann::json& v, const InputLocation& where) {
  if (!v.is_array() || v.size() != 2) throw InputError(where, "expected [gx, gy]");
  Eigen::Vector2d g;
  for (int i = 0; i < 2; ++i) {
    InputLocation e = where;
    e.json_path = json_check::pointer(where.json_path, std::to_string(i));
    g[i] = json_check::quantity(v[i], "m/s^2", e);
    if (!std::isfinite(g[i])) throw InputError(e, "must be finite");
  }
  return g;
}

}  // namespace

void register_gravity_setting(Registry& registry) {
  registry.add_world_setting("gravity", "gravity [gx, gy] in the plane of planar mechanisms and 1D axes (m/s^2)",
                             [](const nlohmann::json& v, const InputLocation& where) { read_gravity(v, where); });
}

Eigen::Vector2d planar_gravity(const World& world) {
  if (!world.settings.contains("gravity")) return {0.0, -9.81};
  return read_gravity(world.settings["gravity"], {world.file, "/world/gravity", "", ""});
}

}  // namespace jourdain
