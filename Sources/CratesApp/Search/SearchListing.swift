import CratesCore
import CratesNet
import Foundation

/// What `crates search` prints: one line per release, ranked, as `crates lookup` lists
/// releases.
public enum SearchListing {
    /// The tab-separated columns, in order.
    public static let columns = ["release_id", "artist", "title", "country", "year", "format", "label", "catno", "url"]

    /// `release_id  artist  title  country  year  format  label  catno  url`; a value
    /// Discogs does not give is an empty field.
    public static func line(_ hit: ReleaseSearchHit, web: String) -> String {
        let candidate = hit.candidate
        return TabSeparatedText.line([
            String(candidate.releaseID), candidate.artist, candidate.title, candidate.country ?? "",
            candidate.year.map(String.init) ?? "", candidate.formats.joined(separator: " + "), candidate.label ?? "",
            candidate.catno ?? "", page(hit, web: web),
        ])
    }

    /// One JSON object (a line of JSON Lines): `id`, `artist`, `title`, `country`, `year`,
    /// `formats`, `label`, `catno`, `url`, `catnoMatches` (its catalogue number has the
    /// key of the one asked), and `source`: "catalogue" or "discogs".
    /// `marks`: what the collection holds of it: `owned` (`copies`, `place` of the first, or
    /// null) and `wanted`.
    public static func jsonLine(
        _ hit: ReleaseSearchHit, source: AnswerSource, web: String, encoder: JSONEncoder, marks: ReleaseMarks? = nil
    ) throws -> String {
        String(decoding: try encoder.encode(HitJSON(hit: hit, url: page(hit, web: web), source: source, marks: marks ?? ReleaseMarks())), as: UTF8.self)
    }

    /// "3 releases found (2 requests)", or "… in the catalogue of 2026-06-01 (no request)",
    /// and a hint when a page could not hold them all.
    public static func summary(_ answer: ReleaseFinder.Answer) -> String {
        let how = answer.edition.map { "in the catalogue of \($0) (no request)" } ?? "(\(counted(answer.requests, "request")))"
        var text = "\(counted(answer.hits.count, "release")) found \(how)"
        if !answer.isComplete { text += "; more match than one page holds: give more fields to narrow the search" }
        return text
    }

    /// The release page: Discogs' own address for it when the result gave one.
    static func page(_ hit: ReleaseSearchHit, web: String) -> String {
        guard let uri = hit.result.uri.map(ControlCharacters.cleaned), !uri.isEmpty else { return "\(web)/release/\(hit.candidate.releaseID)" }
        return uri.hasPrefix("/") ? web + uri : uri
    }
}

private struct HitJSON: Encodable {
    let hit: ReleaseSearchHit
    let url: String
    let source: AnswerSource
    let marks: ReleaseMarks

    enum Key: String, CodingKey { case id, artist, title, country, year, formats, label, catno, url, catnoMatches, source, owned, wanted }

    func encode(to encoder: any Encoder) throws {
        let candidate = hit.candidate
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(candidate.releaseID, forKey: .id)
        try c.encode(candidate.artist, forKey: .artist)
        try c.encode(candidate.title, forKey: .title)
        try c.encode(candidate.country, forKey: .country)
        try c.encode(candidate.year, forKey: .year)
        try c.encode(candidate.formats, forKey: .formats)
        try c.encode(candidate.label, forKey: .label)
        try c.encode(candidate.catno, forKey: .catno)
        try c.encode(url, forKey: .url)
        try c.encode(hit.match.catalogueNumber, forKey: .catnoMatches)
        try c.encode(source, forKey: .source)
        try c.encode(OwnedJSON(marks), forKey: .owned)
        try c.encode(marks.wanted, forKey: .wanted)
    }
}

/// `owned` in the JSON of `crates search` and `crates lookup`: how many copies the
/// collection holds and the first one's place; null when none.
struct OwnedJSON: Encodable {
    let marks: ReleaseMarks

    init?(_ marks: ReleaseMarks) {
        guard marks.copies > 0 else { return nil }
        self.marks = marks
    }

    enum Key: String, CodingKey { case copies, place }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(marks.copies, forKey: .copies)
        try c.encode(marks.place, forKey: .place)
    }
}
