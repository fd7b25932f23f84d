// A flexible beam by finite rigid segments (seed 004: Li & Chen, a flexible arm
// discretized into rigid segments joined by elastic rotations): a composite component that expands into N planar
// bodies joined by revolute joints with rotational springs, bending only.
//
// Segment i (1 … N) is a uniform rigid rod of length l = L/N: mass ρA l, centroidal
// inertia ρA l³/12, points "a" (root end) and "b" (tip end). Between segments the spring
// is k = EI/l: the bending moment over a segment's length, M = EI κ with κ ≈ Δφ/l. At the
// clamp the first segment pivots about its end rather than its middle, so the spring
// there is 2EI/l: with it the static tip deflection under a tip load is PL³/(3EI)
// (1 + 1/(2N²)) and the tip rotation PL²/(2EI) exactly, against (N+1)(2N+1)/(2N²) times
// PL³/(3EI) with EI/l at the root (15 % at N = 10). Structural damping is stiffness-
// proportional, c = η k at every spring.
//
// Every parameter of the beam is configuration: the netlist loader replaces the beam by
// its parts before any run, so a run changes the parts' numeric parameters instead
// ("beam/spring3.stiffness", "beam/segment1.mass").
#include <cmath>
#include <string>

#include "jourdain/component.hpp"
#include "mechanical_library.hpp"

namespace jourdain::mechanical {

namespace {

using nlohmann::json;

class FlexibleBeam final : public Component {
 public:
  FlexibleBeam() {
    declare_config_real("length", "m", std::nullopt, "L", Range::positive());
    declare_config_real("bending_stiffness", "N*m^2", std::nullopt, "EI", Range::positive());
    declare_config_real("mass_per_length", "kg/m", std::nullopt, "ρA", Range::positive());
    declare_integer("segments", 10, "N, the number of rigid segments", Range::between(1, 10000));
    declare_config_real("structural_damping", "s", 0.0, "η: each spring's damping is η times its stiffness",
                        Range::non_negative());
    declare_text("root_spring", std::string("2EI/l"),
                 "stiffness at the clamp: 2EI/l (converges as 1/(2N²)) or EI/l (the plain chain)", {"2EI/l", "EI/l"});
    declare_real_list("origin", "m", std::vector<double>{0.0, 0.0}, "the root's position at the start [x, y]");
    declare_config_real("angle", "rad", 0.0, "the beam's direction at the start (straight, unloaded)");
    declare_config_real("clamp_angle", "rad", 0.0,
                        "the angle, at the start, of the body the root is clamped to: the root spring is relaxed "
                        "at angle − clamp_angle");
  }

  json expansion() const override {
    const long n = integer("segments");
    const double L = config_real("length"), EI = config_real("bending_stiffness");
    const double rho_a = config_real("mass_per_length"), eta = config_real("structural_damping");
    const double l = L / static_cast<double>(n), angle = config_real("angle");
    const std::vector<double> origin = real_list("origin");
    const double ux = std::cos(angle), uy = std::sin(angle);
    const double k = EI / l, k_root = text("root_spring") == "2EI/l" ? 2.0 * k : k;

    json comps = json::object(), conns = json::array();
    auto seg = [](long i) { return "segment" + std::to_string(i); };
    for (long i = 1; i <= n; ++i) {
      const double s = (static_cast<double>(i) - 0.5) * l;  // mass centre along the beam
      comps[seg(i)] = {{"type", "mechanical.body"},
                       {"params",
                        {{"mass", rho_a * l},
                         {"inertia", rho_a * l * l * l / 12.0},
                         {"points", {{"a", {-0.5 * l, 0.0}}, {"b", {0.5 * l, 0.0}}}}}},
                       {"initial", {{"x", origin[0] + s * ux}, {"y", origin[1] + s * uy}, {"theta", angle}}}};
    }
    comps["root_pin"] = {{"type", "mechanical.revolute"}};
    comps["root_spring"] = {{"type", "mechanical.rotational_spring_damper"},
                            {"params",
                             {{"stiffness", k_root},
                              {"damping", eta * k_root},
                              {"free_angle", angle - config_real("clamp_angle")}}}};
    conns.push_back({seg(1) + ".a", "root_pin.b"});
    conns.push_back({seg(1) + ".a", "root_spring.b"});
    for (long i = 1; i < n; ++i) {
      const std::string pin = "pin" + std::to_string(i), spring = "spring" + std::to_string(i);
      comps[pin] = {{"type", "mechanical.revolute"}};
      comps[spring] = {{"type", "mechanical.rotational_spring_damper"},
                       {"params", {{"stiffness", k}, {"damping", eta * k}}}};
      conns.push_back({seg(i) + ".b", pin + ".a"});
      conns.push_back({seg(i + 1) + ".a", pin + ".b"});
      conns.push_back({seg(i) + ".b", spring + ".a"});
      conns.push_back({seg(i + 1) + ".a", spring + ".b"});
    }
    return {{"components", comps},
            {"connections", conns},
            {"ports", {{"root", json::array({"root_pin.a", "root_spring.a"})}, {"tip", seg(n) + ".b"}}}};
  }

 private:
  void configure() override {
    if (real_list("origin").size() != 2) parameter_error("origin", "expected [x, y]");
  }
};

}  // namespace

void register_flexible_beam(Registry& r) {
  r.add<FlexibleBeam>("mechanical.flexible_beam",
                      "flexible beam as N rigid segments with rotational springs (composite: expands into "
                      "bodies, revolute joints and springs; ports root, tip)");
}

}  // namespace jourdain::mechanical
