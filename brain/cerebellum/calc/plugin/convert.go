package calc

import (
	"fmt"
	"sort"
	"strings"
)

// unit is one unit: its quantity and its size in the quantity's base unit
// (m, kg, m³, s, byte, m/s, m²). Temperatures convert through kelvin with
// an offset.
type unit struct {
	quantity string
	factor   float64
	offset   float64 // for temperatures: kelvin = value*factor + offset
	name     string
}

// unitTable builds the unit list. It is a function, not a package
// variable, so plugins hold no mutable package state.
func unitTable() map[string]unit {
	t := map[string]unit{}
	// length (metre)
	addUnit(t, "length", 1, "m", "meter", "metre")
	addUnit(t, "length", 1e3, "km", "kilometer", "kilometre")
	addUnit(t, "length", 1e-2, "cm", "centimeter", "centimetre")
	addUnit(t, "length", 1e-3, "mm", "millimeter", "millimetre")
	addUnit(t, "length", 1e-6, "µm", "um", "micrometer", "micron")
	addUnit(t, "length", 1e-9, "nm", "nanometer")
	addUnit(t, "length", 0.0254, "in", "inch", "inches", "\"")
	addUnit(t, "length", 0.3048, "ft", "foot", "feet", "'")
	addUnit(t, "length", 0.9144, "yd", "yard")
	addUnit(t, "length", 1609.344, "mi", "mile")
	addUnit(t, "length", 1852, "nmi", "nautical mile", "nautical_mile")
	addUnit(t, "length", 9.4607304725808e15, "ly", "light year", "lightyear")
	addUnit(t, "length", 1.495978707e11, "au", "astronomical unit")
	// mass (kilogram)
	addUnit(t, "mass", 1, "kg", "kilogram", "kilo")
	addUnit(t, "mass", 1e-3, "g", "gram", "gramme")
	addUnit(t, "mass", 1e-6, "mg", "milligram")
	addUnit(t, "mass", 1e-9, "µg", "ug", "microgram", "mcg")
	addUnit(t, "mass", 1e3, "t", "tonne", "metric ton")
	addUnit(t, "mass", 0.45359237, "lb", "lbs", "pound")
	addUnit(t, "mass", 0.028349523125, "oz", "ounce")
	addUnit(t, "mass", 6.35029318, "st", "stone")
	addUnit(t, "mass", 907.18474, "short ton", "us ton")
	addUnit(t, "mass", 1016.0469088, "long ton", "uk ton")
	addUnit(t, "mass", 0.0002, "ct", "carat")
	// volume (cubic metre)
	addUnit(t, "volume", 1, "m3", "m³", "cubic meter", "cubic metre")
	addUnit(t, "volume", 1e-3, "l", "L", "liter", "litre")
	addUnit(t, "volume", 1e-4, "dl", "deciliter", "decilitre")
	addUnit(t, "volume", 1e-5, "cl", "centiliter", "centilitre")
	addUnit(t, "volume", 1e-6, "ml", "mL", "milliliter", "millilitre", "cm3", "cm³", "cc")
	addUnit(t, "volume", 0.003785411784, "gal", "gallon", "us gallon")
	addUnit(t, "volume", 0.00454609, "imperial gallon", "uk gallon", "gal_uk")
	addUnit(t, "volume", 0.000946352946, "qt", "quart")
	addUnit(t, "volume", 0.000473176473, "pt", "pint", "us pint")
	addUnit(t, "volume", 0.00056826125, "uk pint", "imperial pint")
	addUnit(t, "volume", 0.0002365882365, "cup")
	addUnit(t, "volume", 2.95735295625e-5, "fl oz", "floz", "fluid ounce")
	addUnit(t, "volume", 1.478676478125e-5, "tbsp", "tablespoon")
	addUnit(t, "volume", 4.92892159375e-6, "tsp", "teaspoon")
	addUnit(t, "volume", 0.028316846592, "ft3", "ft³", "cubic foot", "cubic feet")
	addUnit(t, "volume", 1.6387064e-5, "in3", "in³", "cubic inch")
	// area (square metre)
	addUnit(t, "area", 1, "m2", "m²", "square meter", "square metre", "sqm")
	addUnit(t, "area", 1e6, "km2", "km²", "square kilometer", "square kilometre")
	addUnit(t, "area", 1e-4, "cm2", "cm²", "square centimeter")
	addUnit(t, "area", 1e4, "ha", "hectare")
	addUnit(t, "area", 100, "a", "are")
	addUnit(t, "area", 4046.8564224, "acre")
	addUnit(t, "area", 0.09290304, "ft2", "ft²", "sq ft", "square foot", "square feet")
	addUnit(t, "area", 0.00064516, "in2", "in²", "sq in", "square inch")
	addUnit(t, "area", 2589988.110336, "mi2", "mi²", "sq mi", "square mile")
	// time (second)
	addUnit(t, "time", 1, "s", "sec", "second")
	addUnit(t, "time", 1e-3, "ms", "millisecond")
	addUnit(t, "time", 1e-6, "µs", "us", "microsecond")
	addUnit(t, "time", 1e-9, "ns", "nanosecond")
	addUnit(t, "time", 60, "min", "minute")
	addUnit(t, "time", 3600, "h", "hr", "hour")
	addUnit(t, "time", 86400, "d", "day")
	addUnit(t, "time", 604800, "wk", "week")
	addUnit(t, "time", 2629746, "mo", "month")
	addUnit(t, "time", 31556952, "yr", "year", "y")
	addUnit(t, "time", 315569520, "decade")
	addUnit(t, "time", 3155695200, "century")
	// data (byte); decimal and binary prefixes, bits
	addUnit(t, "data", 1, "B", "byte", "octet")
	addUnit(t, "data", 0.125, "bit", "b")
	addUnit(t, "data", 1e3, "kB", "KB", "kilobyte")
	addUnit(t, "data", 1e6, "MB", "megabyte")
	addUnit(t, "data", 1e9, "GB", "gigabyte")
	addUnit(t, "data", 1e12, "TB", "terabyte")
	addUnit(t, "data", 1e15, "PB", "petabyte")
	addUnit(t, "data", 1024, "KiB", "kibibyte")
	addUnit(t, "data", 1048576, "MiB", "mebibyte")
	addUnit(t, "data", 1073741824, "GiB", "gibibyte")
	addUnit(t, "data", 1099511627776, "TiB", "tebibyte")
	addUnit(t, "data", 1125899906842624, "PiB", "pebibyte")
	addUnit(t, "data", 125, "kbit", "Kbit", "kilobit")
	addUnit(t, "data", 125e3, "Mbit", "Mb", "megabit")
	addUnit(t, "data", 125e6, "Gbit", "Gb", "gigabit")
	addUnit(t, "data", 125e9, "Tbit", "Tb", "terabit")
	// speed (metre per second)
	addUnit(t, "speed", 1, "m/s", "mps", "meters per second", "metres per second")
	addUnit(t, "speed", 1/3.6, "km/h", "kmh", "kph", "kilometers per hour", "kilometres per hour")
	addUnit(t, "speed", 0.44704, "mph", "mi/h", "miles per hour")
	addUnit(t, "speed", 1852.0/3600, "kn", "kt", "knot")
	addUnit(t, "speed", 0.3048, "ft/s", "fps", "feet per second")
	addUnit(t, "speed", 299792458, "c", "speed of light")
	// data rates (byte per second)
	addUnit(t, "data rate", 125, "kbit/s", "kbps")
	addUnit(t, "data rate", 125e3, "Mbit/s", "Mbps", "mbps")
	addUnit(t, "data rate", 125e6, "Gbit/s", "Gbps", "gbps")
	addUnit(t, "data rate", 1e6, "MB/s", "MBps")
	addUnit(t, "data rate", 1, "B/s", "byte per second")
	// energy (joule)
	addUnit(t, "energy", 1, "J", "joule")
	addUnit(t, "energy", 1e3, "kJ", "kilojoule")
	addUnit(t, "energy", 4.184, "cal", "calorie")
	addUnit(t, "energy", 4184, "kcal", "kilocalorie", "Cal")
	addUnit(t, "energy", 3.6e6, "kWh", "kilowatt hour", "kilowatt-hour")
	addUnit(t, "energy", 3600, "Wh", "watt hour")
	addUnit(t, "energy", 1055.05585262, "BTU", "btu")
	// pressure (pascal)
	addUnit(t, "pressure", 1, "Pa", "pascal")
	addUnit(t, "pressure", 1e3, "kPa", "kilopascal")
	addUnit(t, "pressure", 1e5, "bar")
	addUnit(t, "pressure", 100, "mbar", "hPa", "millibar")
	addUnit(t, "pressure", 101325, "atm", "atmosphere")
	addUnit(t, "pressure", 6894.757293168, "psi")
	addUnit(t, "pressure", 133.322387415, "mmHg", "torr")
	// temperatures
	t["K"] = unit{quantity: "temperature", factor: 1, name: "K"}
	t["kelvin"] = t["K"]
	t["C"] = unit{quantity: "temperature", factor: 1, offset: 273.15, name: "°C"}
	for _, n := range []string{"°C", "celsius", "centigrade", "degc"} {
		t[n] = t["C"]
	}
	t["F"] = unit{quantity: "temperature", factor: 5.0 / 9, offset: 273.15 - 32*5.0/9, name: "°F"}
	for _, n := range []string{"°F", "fahrenheit", "degf"} {
		t[n] = t["F"]
	}
	return t
}

// addUnit registers a unit under its names; the first is the display name.
func addUnit(t map[string]unit, q string, factor float64, names ...string) {
	for _, n := range names {
		t[n] = unit{quantity: q, factor: factor, name: names[0]}
	}
}

// findUnit looks a unit up: exact spelling first (MB is not Mb), then
// case-insensitively, then without a plural s.
func findUnit(table map[string]unit, name string) (unit, bool) {
	name = strings.TrimSpace(name)
	if u, ok := table[name]; ok {
		return u, true
	}
	low := strings.ToLower(name)
	cands := []string{low, strings.TrimSuffix(low, "s"), strings.TrimSuffix(low, "es")}
	if strings.HasPrefix(low, "degrees ") || strings.HasPrefix(low, "degree ") {
		cands = append(cands, strings.TrimPrefix(strings.TrimPrefix(low, "degrees "), "degree "))
	}
	for _, c := range cands {
		if u, ok := table[c]; ok {
			return u, true
		}
		// Case-insensitive match over spellings such as "MB" for "mb".
		var hits []string
		for k := range table {
			if strings.ToLower(k) == c {
				hits = append(hits, k)
			}
		}
		if len(hits) > 0 {
			sort.Strings(hits)
			// Prefer the byte unit for ambiguous data spellings (mb -> MB).
			for _, h := range hits {
				if strings.HasSuffix(h, "B") {
					return table[h], true
				}
			}
			return table[hits[0]], true
		}
	}
	return unit{}, false
}

// convert converts value between units.
func convert(table map[string]unit, value float64, from, to string) (float64, unit, unit, error) {
	fu, ok := findUnit(table, from)
	if !ok {
		return 0, unit{}, unit{}, fmt.Errorf("unknown unit %q; %s", from, unitHint(table))
	}
	tu, ok := findUnit(table, to)
	if !ok {
		return 0, unit{}, unit{}, fmt.Errorf("unknown unit %q; %s", to, unitHint(table))
	}
	if fu.quantity != tu.quantity {
		return 0, fu, tu, fmt.Errorf("cannot convert %s (%s) to %s (%s): they measure different things", from, fu.quantity, to, tu.quantity)
	}
	base := value*fu.factor + fu.offset
	if fu.quantity == "temperature" && base < 0 {
		return 0, fu, tu, fmt.Errorf("%v %s is below absolute zero", value, fu.name)
	}
	return (base - tu.offset) / tu.factor, fu, tu, nil
}

func unitHint(table map[string]unit) string {
	byQ := map[string][]string{}
	for k, u := range table {
		if k == u.name {
			byQ[u.quantity] = append(byQ[u.quantity], k)
		}
	}
	var qs []string
	for q := range byQ {
		qs = append(qs, q)
	}
	sort.Strings(qs)
	var b strings.Builder
	b.WriteString("known units:")
	for _, q := range qs {
		names := byQ[q]
		sort.Strings(names)
		b.WriteString(" " + q + " (" + strings.Join(names, ", ") + ");")
	}
	return strings.TrimSuffix(b.String(), ";")
}
