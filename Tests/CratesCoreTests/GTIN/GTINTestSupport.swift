import CratesCore
import CratesTestSupport

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
