// The standard port domains (framework/README.md, "Ports and causality"). Each belongs to the
// component library of the same name (components/<library>/domain.cpp), which defines it;
// other libraries and plugins use them through this header to connect to that library.
#pragma once

#include "jourdain/domain.hpp"

namespace jourdain {

// signal: an output port (state side) sends a value to input ports (response side).
const Domain& signal_domain();
namespace signal {
inline constexpr Var value{Flow::StateToResponse, 0};
}

// 1D mechanical, along one axis: the mass (state side) gives position and velocity;
// a spring, damper, cylinder rod or sensor (response side) returns the force it exerts
// on the mass, positive along the axis.
const Domain& mech1d_domain();
namespace mech1d {
inline constexpr Var position{Flow::StateToResponse, 0};
inline constexpr Var velocity{Flow::StateToResponse, 1};
inline constexpr Var force{Flow::ResponseToState, 0};
}  // namespace mech1d

// Hydraulic: a capacitive element (volume, chamber; state side) gives its pressure; a
// resistive element (orifice, valve, pump; response side) returns the volume flow rate
// it delivers into the capacitive element.
const Domain& hydraulic_domain();
namespace hydraulic {
inline constexpr Var pressure{Flow::StateToResponse, 0};
inline constexpr Var flow_rate{Flow::ResponseToState, 0};
}  // namespace hydraulic

// Planar mechanical: a body point (state side) gives the point's position, velocity and
// acceleration and the body's angle and rates; a joint or force element (response side)
// returns the force and torque it applies to the body at that point.
const Domain& planar_domain();
namespace planar {
inline constexpr Var x{Flow::StateToResponse, 0};
inline constexpr Var y{Flow::StateToResponse, 1};
inline constexpr Var theta{Flow::StateToResponse, 2};
inline constexpr Var vx{Flow::StateToResponse, 3};
inline constexpr Var vy{Flow::StateToResponse, 4};
inline constexpr Var omega{Flow::StateToResponse, 5};
inline constexpr Var ax{Flow::StateToResponse, 6};
inline constexpr Var ay{Flow::StateToResponse, 7};
inline constexpr Var alpha{Flow::StateToResponse, 8};
inline constexpr Var fx{Flow::ResponseToState, 0};
inline constexpr Var fy{Flow::ResponseToState, 1};
inline constexpr Var tz{Flow::ResponseToState, 2};
}  // namespace planar

// Rotational 1D mechanics, about one axis: an inertia (state side) gives its angle and
// speed; a shaft, gear, clutch, pump or torque source (response side) returns the torque
// it exerts on the inertia, positive along the axis.
const Domain& rotational_domain();
namespace rotational {
inline constexpr Var angle{Flow::StateToResponse, 0};
inline constexpr Var speed{Flow::StateToResponse, 1};
inline constexpr Var torque{Flow::ResponseToState, 0};
}  // namespace rotational

// Electrical: a node-like element (ground, capacitor, voltage source, battery terminal,
// node; state side) gives its potential against the common reference; a branch (resistor,
// inductor, current source, machine winding; response side) returns the current it
// delivers into that element. So a capacitive element integrates current as a hydraulic
// volume integrates flow, and an inductive branch integrates voltage as a fluid line's
// inertia integrates pressure.
const Domain& electrical_domain();
namespace electrical {
inline constexpr Var voltage{Flow::StateToResponse, 0};
inline constexpr Var current{Flow::ResponseToState, 0};
}  // namespace electrical

// Thermal: a heat capacity or fixed temperature (state side) gives its temperature; a
// conductance, convection, heat source or a component's heat port (response side)
// returns the heat flow it delivers into the capacity.
const Domain& thermal_domain();
namespace thermal {
inline constexpr Var temperature{Flow::StateToResponse, 0};
inline constexpr Var heat_flow{Flow::ResponseToState, 0};
}  // namespace thermal

}  // namespace jourdain
