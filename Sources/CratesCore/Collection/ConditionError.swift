import Foundation

/// A grade that is not one of Discogs' (with the valid ones, so the user can correct it).
public struct ConditionError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        case media, sleeve
    }

    /// What was typed, cleaned of control characters (it is echoed to a terminal).
    public var typed: String
    public var kind: Kind

    public init(typed: String, kind: Kind) {
        self.typed = ControlCharacters.cleaned(typed)
        self.kind = kind
    }

    /// Discogs' texts that are accepted for this kind, best grade first.
    public var valid: [String] {
        switch kind {
        case .media: MediaCondition.allCases.map(\.rawValue)
        case .sleeve: SleeveCondition.allCases.map(\.rawValue)
        }
    }

    public var description: String {
        let what = kind == .media ? "media condition" : "sleeve condition"
        let shown = typed.trimmingCharacters(in: .whitespaces)
        let head = shown.isEmpty ? "no \(what) given" : "\"\(shown)\" is not a \(what)"
        return "\(head): use one of \(valid.joined(separator: ", ")) (or the short form: M, NM or M-, VG+, VG, G+, G, F, P)"
    }
}
