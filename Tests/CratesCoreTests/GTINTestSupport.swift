import CratesCore

/// SplitMix64: a small, fast, seeded generator, so that a failing property test fails the
/// same way on every run (the seed is in the test).
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension SeededGenerator {
    /// `count` random ASCII digits.
    mutating func digits(_ count: Int) -> String {
        String((0..<count).map { _ in Character(String(Int.random(in: 0...9, using: &self))) })
    }
}

/// `body` followed by its GS1 check digit.
func withCheckDigit(_ body: String) -> String {
    body + String(CheckDigit.compute(body: body) ?? -1)
}

/// The error `GTIN.parse` throws for `input`, or nil when it parses.
func parseError(_ input: String) -> GTINError? {
    do {
        _ = try GTIN.parse(input)
        return nil
    } catch {
        return error
    }
}

/// `text` with control and formatting characters escaped, for test names and messages
/// (a raw right-to-left override would scramble the test log).
func escapedForDisplay(_ text: String) -> String {
    "\"" + text.unicodeScalars.map { scalar in
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: scalar.escaped(asASCII: true)
        default: String(scalar)
        }
    }.joined() + "\""
}
