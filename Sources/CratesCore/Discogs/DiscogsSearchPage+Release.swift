extension DiscogsSearchPage.Result {
    /// How this result's "Artist - Title" splits (see `DiscogsName.splitExactly`).
    public var titleSplit: DiscogsName.TitleSplit {
        DiscogsName.splitExactly(ControlCharacters.cleaned(title))
    }

    /// The release as far as this search result tells it: everything the list and its
    /// sections show (artist, title, genres, styles, formats, year, country, labels with
    /// the catalogue number, thumbnail, page), so that one search completes a record
    /// without `GET /releases/{id}`. Its `hasFullDetails` is false and its `rawJSON` is this
    /// result's JSON.
    ///
    /// Nil when the result is not a release, or its title does not split exactly once at
    /// " - " (no separator, or several: see `titleSplit`): then fetch the release itself.
    ///
    /// A search result names its labels (companies included, sometimes repeated) but gives
    /// one catalogue number, the first label's: that label carries it, repeats are dropped.
    public func completedRelease(webBase: String = "https://www.discogs.com") -> Release? {
        guard isRelease, case .split(let artist, let rawTitle) = titleSplit else { return nil }
        let title = DiscogsName.trimmed(rawTitle)
        guard !artist.isEmpty, !title.isEmpty else { return nil }
        var seen = Set<String>()
        var labels: [Release.LabelCredit] = []
        for name in label {
            guard let cleaned = DiscogsText.nonEmpty(name).map(DiscogsName.display), seen.insert(cleaned).inserted else { continue }
            labels.append(Release.LabelCredit(name: cleaned, catno: labels.isEmpty ? catalogueNumber : nil))
        }
        if labels.isEmpty, let catalogueNumber {
            // A catalogue number without a label name still identifies the pressing.
            labels.append(Release.LabelCredit(name: "", catno: catalogueNumber))
        }
        let page = DiscogsText.nonEmpty(uri).map { $0.hasPrefix("/") ? webBase + $0 : $0 }
        return Release(
            id: id, artist: artist, title: title,
            genres: genre.compactMap(DiscogsText.nonEmpty), styles: style.compactMap(DiscogsText.nonEmpty),
            formats: formatSummaries, year: year.flatMap { $0 > 0 ? $0 : nil },
            country: DiscogsText.nonEmpty(country), labels: labels,
            url: page, thumbURL: DiscogsText.nonEmpty(thumb),
            rawJSON: rawJSON ?? "{}", hasFullDetails: false)
    }
}
