import ArgumentParser
import CratesCore

/// `--state` values: `LookupState` raw values, case-insensitively, repeated or separated by
/// commas (`--state ambiguous,notFound`).
enum LookupStateOption {
    static let validValues = LookupState.allCases.map(\.rawValue).joined(separator: ", ")

    static func parse(_ values: [String]) throws -> [LookupState] {
        var states: [LookupState] = []
        for value in values {
            for part in value.split(separator: ",") {
                let name = part.trimmingCharacters(in: .whitespaces)
                guard let state = LookupState.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else {
                    throw ValidationError("unknown state \"\(GTIN.displayForm(of: name))\": use one of \(validValues)")
                }
                if !states.contains(state) { states.append(state) }
            }
        }
        return states
    }
}
