import CratesCore

extension AppState {
    /// How the pressing picker lays its candidates out. Two rows each ("Artist — Title", then
    /// country · year · format · label · catno); with covers on and room for them, a block of
    /// `thumbRows + 1` rows each, a thumbnail of the pressing's cover at its left. Pressings
    /// of one record share artist and title and often look alike in text; their covers (a
    /// reissue's sticker, another label's design, a picture disc) tell them apart at a
    /// glance, side by side, which one large cover of the highlighted pressing could not.
    struct PickerLayout: Equatable {
        /// Rows a candidate takes.
        var block: Int
        /// Whether each candidate has its cover beside it.
        var thumbnails: Bool
        /// Candidates on one page.
        var perPage: Int
    }

    /// A thumbnail's size: 8 × 4 cells is about square (a cell is twice as tall as wide),
    /// and enough for a cover's colours and layout.
    static let pickerThumbColumns = 8
    static let pickerThumbRows = 4
    /// The columns the candidates' text keeps beside a thumbnail.
    static let pickerTextColumns = 40
    /// Candidates a page shows at least with thumbnails; fewer, and the plain list is kept
    /// (choosing means comparing, so more of them beats pictures of fewer).
    static let pickerThumbMinimumPage = 3

    var pickerLayout: PickerLayout {
        let available = listHeight - 2
        let plain = PickerLayout(block: 2, thumbnails: false, perPage: max(1, available / 2))
        guard coversOn, coverColours != nil else { return plain }
        let block = Self.pickerThumbRows + 1
        guard available / block >= Self.pickerThumbMinimumPage,
            width >= Self.pickerTextLeft + Self.pickerTextColumns
        else { return plain }
        return PickerLayout(block: block, thumbnails: true, perPage: available / block)
    }

    /// Where a candidate's text starts: after its thumbnail and a space, when it has one.
    static var pickerTextLeft: Int { 1 + pickerThumbColumns + 2 }

    /// The candidates on the screen (indexes into `shown`): the page that keeps the
    /// selected one in view.
    func pickerPage(_ state: PickerState, _ layout: PickerLayout) -> Range<Int> {
        let count = state.shown.count
        let first = max(0, min(state.selected - layout.perPage + 1, count - layout.perPage))
        return first..<min(count, first + layout.perPage)
    }

    /// A candidate's thumbnail, as the session is asked for it: the release's cover, by the
    /// full-size address the search gave (none: the session reads the release, signed).
    func pickerCoverRequest(_ candidate: ReleaseCandidate, _ colours: CoverColours) -> CoverRequest {
        CoverRequest(
            subject: .release(candidate.releaseID, url: candidate.coverURL), columns: Self.pickerThumbColumns,
            rows: Self.pickerThumbRows, colours: colours)
    }

    /// The thumbnails the picker shows, the highlighted one last: the session fetches the
    /// latest asked first, so the one the person looks at comes first, then the rest of the
    /// page; none for candidates off the page, none without thumbnails.
    func pickerCoversWanted(_ colours: CoverColours) -> [CoverRequest] {
        guard case .picker(let state) = mode, !state.loading else { return [] }
        let layout = pickerLayout
        guard layout.thumbnails else { return [] }
        let shown = state.shown
        let page = pickerPage(state, layout)
        let others = page.filter { $0 != state.selected }.map { pickerCoverRequest(shown[$0], colours) }
        let selected = shown.indices.contains(state.selected) ? [pickerCoverRequest(shown[state.selected], colours)] : []
        return others + selected
    }

    /// Draws a candidate's thumbnail at (row, column): its cells, or a dim mark where they will
    /// be ("…") or where there is none ("no cover"; the highlighted candidate says why).
    func renderPickerThumbnail(_ cover: CoverState, row: Int, column: Int, into screen: inout Screen) {
        let box = CoverBox(row: row, column: column, columns: Self.pickerThumbColumns, rows: Self.pickerThumbRows, beside: true)
        switch cover {
        case .art:
            renderCover(cover, in: box, into: &screen)
        case .loading:
            screen.put("…", row: row + box.rows / 2, column: column + box.columns / 2, style: .dim)
        case .placeholder:
            screen.put("no", row: row + 1, column: column + 3, style: .dim)
            screen.put("cover", row: row + 2, column: column + 1, style: .dim)
        }
    }
}
