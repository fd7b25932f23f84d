// The units a parameter's value can be typed in, per SI unit: the first is the SI unit
// itself (a value in it is written as a number), the others are written as "12 mm".
// Every name here is one the netlist's parameters accept.
export const UNITS: Record<string, string[]> = {
  "m": ["m", "mm", "cm", "km"],
  "m/s": ["m/s", "mm/s", "km/h"],
  "m/s^2": ["m/s^2", "mm/s^2"],
  "kg": ["kg", "g"],
  "N": ["N", "kN", "MN"],
  "N*m": ["N*m", "kN*m"],
  "Pa": ["Pa", "kPa", "bar", "MPa"],
  "Pa/s": ["Pa/s", "bar/s", "MPa/s"],
  "m^3/s": ["m^3/s", "L/min", "L/s", "cm^3/s"],
  "m^3": ["m^3", "L", "cm^3"],
  "m^2": ["m^2", "mm^2", "cm^2"],
  "rad": ["rad", "deg"],
  "rad/s": ["rad/s", "rpm", "deg/s"],
  "s": ["s", "ms", "min"],
  "N/m": ["N/m", "kN/m", "N/mm"],
  "N*s/m": ["N*s/m", "kN*s/m"],
  "W": ["W", "kW"],
  "J": ["J", "kJ"],
  "Hz": ["Hz", "kHz"],
  "m^3/rad": ["m^3/rad", "cm^3/rev"],
};

export function unitChoices(si: string | undefined): string[] {
  if (!si) return [];
  return UNITS[si] || [si];
}

// A value as written in the netlist split for the form: a number and a unit of the
// list, or the text kept whole (an expression, "$param", a unit the list lacks).
export function splitValue(v: unknown, si: string | undefined): { text: string; unit: string | null } {
  if (v === undefined || v === null) return { text: "", unit: si || null };
  if (typeof v === "number") return { text: String(v), unit: si || null };
  if (typeof v !== "string") return { text: JSON.stringify(v), unit: null };
  const m = /^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*(\S.*?)?\s*$/.exec(v);
  if (m && si) {
    const unit = m[2] || "";
    const list = unitChoices(si);
    const found = list.find(u => u.toLowerCase() === unit.toLowerCase());
    if (found) return { text: m[1], unit: found };
  }
  return { text: v, unit: null };
}

// What the form's text and unit write into the netlist: a number in SI, "12 mm" in
// another unit, the text as typed when it is not a plain number.
export function joinValue(text: string, unit: string | null, si: string | undefined): unknown {
  const t = text.trim();
  if (t === "") return undefined;
  const plain = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/.test(t);
  if (!plain) return t;
  if (!si || !unit || unit === si) return Number(t);
  return t + " " + unit;
}
