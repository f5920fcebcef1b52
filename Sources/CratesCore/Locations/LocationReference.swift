/// How a person names a place wherever crates takes one (`crates location add --in`,
/// `crates move --to`, `crates list --location`, `crates labels`…):
///
/// - by name: "Crate A3", any case and accents ("crate a3");
/// - by path, when names repeat in different places: the places from any level down to it,
///   separated by "/", ">" or "›" ("Shelf 2/Crate A3", "Living Room › Shelf 2 › Crate A3");
///   a whole path from the top always names one place;
/// - by id: "#17", as `crates location list` shows it, or the place's label code, typed or
///   scanned ("2900000000179").
public enum LocationReference: Hashable, Sendable {
    case id(Int64)
    /// A name or a path, as given (trimmed).
    case name(String)

    /// The characters that separate the places of a typed path.
    public static let separators: Set<Character> = ["/", ">", "›"]

    /// Reads `text`. Throws for a label code with a wrong check digit (the message says what
    /// was meant), for a copy's label, and for an empty text.
    public static func parse(_ text: String) throws(LocationError) -> LocationReference {
        let trimmed = String(text.trimmingWhitespace())
        guard !trimmed.isEmpty else { throw .badName(text, reason: "a place needs a name") }
        if let id = id(in: trimmed) { return .id(id) }
        if trimmed.first?.isNumber == true {
            let code: LabelCode?
            do {
                code = try LabelCode.parse(trimmed)
            } catch {
                if case .checkDigit = error { throw .label(error) }
                code = nil
            }
            if let code {
                guard code.kind == .location else { throw .copyLabel(code) }
                return .id(Int64(code.id))
            }
        }
        return .name(trimmed)
    }

    /// The id in "#17"; nil for anything else.
    static func id(in text: String) -> Int64? {
        guard text.first == "#" else { return nil }
        let digits = text.dropFirst()
        guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int64(digits)
    }

    /// Whether `text` has the shape of a crates label (13 digits starting 290 or 291) with a
    /// wrong check digit.
    static func looksLikeLabel(_ text: String) -> Bool {
        do {
            _ = try LabelCode.parse(text)
            return false
        } catch {
            if case .checkDigit = error { return true }
            return false
        }
    }
}
