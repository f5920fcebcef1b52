/// The order of the records within each genre section of the list (the sections stay
/// genres, by name). Each order ends with the record's id, so two copies of one release
/// keep the order they were added in.
///
/// - `artist`: by artist as a record shop files it (see `ListOrder.filingArtist`), then year,
///   then title. The default: collectors file by artist.
/// - `title`: by title, then artist.
/// - `year`: by year (unknown first), then as `artist`.
/// - `added`: in the order the copies were added.
/// - `label`: by label, then catalogue number, then as `artist`.
/// - `place`: by place (its path from the top; no place first: those still to shelve), then
///   as `artist`.
///
/// Records not matched yet have no artist, title or year: in every order but `added` and
/// `place` they come first in their section, in the order they were added.
public enum ListOrder: String, CyclingOrder, Sendable, Codable {
    case artist, title, year, added, label, place

    public static let `default`: ListOrder = .artist

    /// The words a record shop skips at the start of an artist's name when it files it
    /// (lower case, as folded text is): English "the", "a", "an"; German "die", "der", "das";
    /// French "les". Not the singular Romance articles "la", "le", "los": shops file La Roux,
    /// Le Tigre and Los Lobos under L, the article being felt as part of the name. A person
    /// whose first name is one of these ("Les Paul", "An Pierlé") files under the surname,
    /// as shops file people.
    public static let articles = ["the", "a", "an", "die", "der", "das", "les"]

    /// The artist as filed: `folded` (lower case, see `TextFolding`) without a leading
    /// article and its space ("the beatles" → "beatles"), unless the article is all there is
    /// ("the the" → "the").
    public static func filingArtist(_ folded: String) -> String {
        for article in articles where folded.hasPrefix(article + " ") {
            let rest = folded.dropFirst(article.count + 1)
            if !rest.isEmpty { return String(rest) }
        }
        return folded
    }
}
