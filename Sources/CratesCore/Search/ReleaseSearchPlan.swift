/// The requests one release search may cost, in order, and when to stop: at most
/// `maximumRequests`, each sent only while the ones before it have not found what it looks for.
///
/// With a catalogue number (the number is what identifies a pressing; every other field the
/// person gave is sent with each form):
/// 1. the number as typed;
/// 2. `CatalogueNumber.respaced`, when it splits into other words than the typed number
///    ("ILPS9135" → "ILPS 9135");
/// 3. the other fields without the number, when an artist, a title or search text was
///    given, the number then compared locally on its key: this recovers any
///    spacing ("cdp7460012" for "CDP 7 46001 2" by Pink Floyd), as long as the other fields
///    keep the release within the first page;
/// 4. `CatalogueNumber.compacted`, when the typed number has several words
///    ("MOVLP 001" → "MOVLP001").
/// Each stops the search as soon as a result has the number's exact key; forms that send
/// the same words as one already sent are skipped, and the fourth is dropped when three
/// came before it. A search that finds no exact key returns every result found, ranked.
///
/// A label alone does not earn the third form, and a leading-letters search ("CDP" with the
/// label) is not among them: a label, or the letters of a major label's prefix, matches
/// thousands of releases, more than a page holds, so either would cost a request and rarely
/// find the one.
///
/// Without a catalogue number: the fields as given; then, when nothing was found and two
/// or more identifying fields were given, their words as free text (`q`, every word in any
/// field: finds an artist typed in the title field, or a compilation whose artist is
/// "Various"). Year, country and format stay as filters in both.
public struct ReleaseSearchPlan: Hashable, Sendable {
    /// The most requests a search may cost.
    public static let maximumRequests = 3

    /// Why a step is in the plan.
    public enum Form: String, Hashable, Sendable {
        /// The query as the person typed it.
        case asTyped
        /// The catalogue number respaced.
        case respaced
        /// The other fields without the catalogue number, which is compared locally.
        case withoutCatalogueNumber
        /// The catalogue number without separators.
        case compacted
        /// Artist, title, label and text as free text.
        case freeText
    }

    /// When a step's results end the search.
    public enum Goal: Hashable, Sendable {
        /// A result whose catalogue-number key is `key`.
        case catalogueNumber(key: String)
        /// Any result.
        case anyResult
    }

    public struct Step: Hashable, Sendable {
        public var form: Form
        public var query: ReleaseSearchQuery
    }

    public let query: ReleaseSearchQuery
    public let steps: [Step]
    public let goal: Goal

    public init(_ query: ReleaseSearchQuery) {
        self.query = query
        var steps = [Step(form: .asTyped, query: query)]
        if let catno = query.catno {
            goal = .catalogueNumber(key: CatalogueNumber.key(catno))
            var sentWords = [CatalogueNumber.words(catno)]
            let respaced = CatalogueNumber.respaced(catno)
            if !sentWords.contains(CatalogueNumber.words(respaced)) {
                steps.append(Step(form: .respaced, query: query.replacing(.catno, with: respaced)))
                sentWords.append(CatalogueNumber.words(respaced))
            }
            if query.artist != nil || query.title != nil || query.text != nil {
                steps.append(Step(form: .withoutCatalogueNumber, query: query.replacing(.catno, with: nil)))
            }
            let compacted = CatalogueNumber.compacted(catno)
            if !sentWords.contains(CatalogueNumber.words(compacted)) {
                steps.append(Step(form: .compacted, query: query.replacing(.catno, with: compacted)))
            }
        } else {
            goal = .anyResult
            let identifying: [ReleaseSearchField] = [.artist, .title, .label, .text]
            let texts = identifying.compactMap { query.value(of: $0) }
            if texts.count >= 2 {
                var free = query
                for field in identifying { free = free.replacing(field, with: nil) }
                steps.append(Step(form: .freeText, query: free.replacing(.text, with: texts.joined(separator: " "))))
            }
        }
        self.steps = Array(steps.prefix(Self.maximumRequests))
    }

    /// True when `results` end the search.
    public func isReached(by results: [DiscogsSearchPage.Result]) -> Bool {
        switch goal {
        case .anyResult:
            return results.contains(where: \.isRelease)
        case .catalogueNumber(let key):
            return results.contains { $0.isRelease && $0.catno.map(CatalogueNumber.key) == key }
        }
    }
}
