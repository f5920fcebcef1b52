import Foundation

/// Why a place could not be named, made, renamed, moved or removed. Each message says what
/// was asked and what would work, so that the command line and the status line print it as
/// it is.
public enum LocationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Nothing answers to the name (or path, or id) given.
    case unknown(String)
    /// Several places answer to the name given: their paths tell them apart.
    case ambiguous(String, [Location])
    /// No place has this id (removed?).
    case unknownID(Int64)
    /// A copy's label where a place was wanted.
    case copyLabel(LabelCode)
    /// A label code that does not read (a wrong check digit: a typo or a misread).
    case label(LabelCodeError)
    /// A name the rules refuse (see `LocationName`).
    case badName(String, reason: String)
    /// A place with this name is already there (names are unique among the places in one
    /// place, so that a path names one place).
    case exists(name: String, in: Location?)
    /// A place would end up inside itself.
    case cycle(place: Location, into: Location)
    /// A place being removed cannot hand what it holds to a place inside it (`removing`
    /// is the place removed, `into` the place named to take its contents).
    case moveIntoRemoved(removing: Location, into: Location)

    public var description: String {
        switch self {
        case .unknown(let text):
            return "no place is called \(Self.quoted(text)) (see `crates location list`)"
        case .ambiguous(let text, let places):
            let listed = places.map { "\($0.pathText) (\($0.reference))" }.joined(separator: ", ")
            // The path suggested is the shortest that names one place: a place that a longer
            // ending of one's path names also ends in the text, so is among `places`, and
            // checking them is enough ("Shelf 1/Crate A1" is no way out when two rooms each
            // have a Shelf 1 holding a Crate A1). Never the text that was ambiguous ("AC/DC"
            // at the top beside DC inside AC: "AC/DC" names both); every id is given, not
            // one of them as if it were the one meant.
            let keyed = places.map { $0.path.map(LocationName.key) }
            let example = places.indices.lazy.compactMap { index -> String? in
                let path = places[index].path
                guard path.count > 1 else { return nil }
                for length in 2...path.count {
                    let ending = keyed[index].suffix(length)
                    guard keyed.filter({ $0.count >= length && $0.suffix(length) == ending }).count == 1 else { continue }
                    let suggested = path.suffix(length).joined(separator: "/")
                    return LocationName.key(suggested) == LocationName.key(text) ? nil : suggested
                }
                return nil
            }.first
            let ids = places.map(\.reference).joined(separator: " or ")
            let how = example.map { "name one by its path (\(Self.quoted($0))) or its id (\(ids))" } ?? "name one by its id (\(ids))"
            return "\(Self.quoted(text)) could be any of \(places.count) places: \(listed); \(how)"
        case .unknownID(let id):
            return "no place has id \(id) (removed?); see `crates location list`"
        case .copyLabel(let code):
            return "\(code.digits) is a copy's label (\(code.summary)), not a place's"
        case .label(let error):
            return error.description
        case .badName(let name, let reason):
            return "\(Self.quoted(name)): \(reason)"
        case .exists(let name, let parent):
            if let parent { return "\(parent.pathText) already holds a place called \(Self.quoted(name))" }
            return "there is already a place called \(Self.quoted(name)) at the top"
        case .cycle(let place, let into):
            if place.id == into.id { return "cannot put \(place.pathText) inside itself" }
            return "cannot put \(place.pathText) inside \(into.pathText): \(into.name) is inside \(place.name)"
        case .moveIntoRemoved(let removing, let into):
            if removing.id == into.id { return "cannot move what \(removing.pathText) holds into itself: it is the place being removed" }
            return "cannot move what \(removing.pathText) holds into \(into.pathText): it is inside \(removing.name), "
                + "which is being removed; choose a place outside it"
        }
    }

    /// “text”, control characters escaped, long text cut.
    static func quoted(_ text: String) -> String { "“\(GTIN.displayForm(of: text, limit: 80))”" }
}

/// So that `error.localizedDescription` says the same as `description`.
extension LocationError: LocalizedError {
    public var errorDescription: String? { description }
}
