import Foundation

/// A rating that is not a whole number from 0 to 5.
public enum RatingError: Error, Hashable, Sendable, CustomStringConvertible {
    case outOfRange(Int)
    /// What was typed, cleaned of control characters.
    case notANumber(String)

    public var description: String {
        let rule = "a rating is a whole number from 0 (not rated) to 5"
        switch self {
        case .outOfRange(let value): return "\(value) is not a rating: \(rule)"
        case .notANumber(let text):
            let shown = text.trimmingCharacters(in: .whitespaces)
            return shown.isEmpty ? "no rating given: \(rule)" : "\"\(shown)\" is not a rating: \(rule)"
        }
    }
}
