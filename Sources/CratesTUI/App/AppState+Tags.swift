import CratesCore

/// Tags in the list, as mutt's: `t` tags or untags the selected record, `T` tags every
/// record the list shows, `U` clears them, `b` makes copy labels scanned tag their copies.
/// The list's actions (delete, look up again, move, grade, rate, export) take every tagged
/// record when there are any, else the selected one.
extension AppState {
    /// The records an action takes: the tagged ones (in id order), else the selected one;
    /// nil when there is neither.
    public var actionTargets: [Int64]? {
        if !tags.isEmpty { return tags.sorted() }
        return selectedItem.map { [$0.recordID] }
    }

    /// How the status line names the records an action takes: "12 tagged records", or the
    /// selected record's title.
    var targetsLabel: String {
        if !tags.isEmpty { return tags.count == 1 ? "1 tagged record" : "\(tags.count.grouped) tagged records" }
        return selectedItem?.displayTitle ?? ""
    }

    /// The tag keys of the list, and the tagged actions that need more than a request.
    mutating func tagKey(_ action: Action) -> [AppCommand] {
        switch action {
        case .tag:
            guard let item = selectedItem else { return [] }
            if tags.remove(item.recordID) == nil { tags.insert(item.recordID) }
            moveSelection(by: 1)
            say(tagCountText)
        case .tagShown:
            say("Tagging every record shown…")
            return [.session(.tagShown(CollectionQuery(
                filter: filter, window: RowWindow(offset: 0, limit: 0), location: location?.id, order: order, facet: facet)))]
        case .untagAll:
            say(tags.isEmpty ? "No records are tagged" : "Untagged \(tags.count == 1 ? "1 record" : "\(tags.count.grouped) records")")
            tags = []
        case .tagByScan:
            tagByScan.toggle()
            say(tagByScan
                ? "Tag by scan: a copy label scanned tags its copy (b again: off)"
                : "Tag by scan off: a copy label scanned selects its copy")
        case .moveToPlace:
            guard let ids = actionTargets else { return [] }
            mode = .locations(LocationsState(tree: nil, selected: 0, scroll: 0, moving: ids))
            return [.session(.loadLocations)]
        case .export:
            guard let ids = actionTargets else { return [] }
            say(ids.count == 1 ? "Exporting 1 record…" : "Exporting \(ids.count.grouped) records…")
            return [.session(.exportRecords(ids))]
        case .mediaGrade, .sleeveGrade, .rate:
            guard let ids = actionTargets else { return [] }
            let kind: GradePicker.Kind = action == .mediaGrade ? .media : action == .sleeveGrade ? .sleeve : .rating
            // Opened on "not graded": the rows do not hold the grades, and tagged records'
            // differ (the details view's picker opens on the copy's own).
            listGrading = ListGrading(picker: GradePicker(kind: kind, grading: CopyGrading()), ids: ids)
        default:
            break
        }
        return []
    }

    /// "12 tagged (U clears; …)", or "No records tagged".
    var tagCountText: String {
        tags.isEmpty ? "No records tagged" : "\(tags.count.grouped) tagged (U clears; d, r, p, M, V, *, E act on them)"
    }

    /// The list's grade picker: moved with the picker's keys, Enter (or a digit, for a
    /// rating) sets the value on its records, Esc leaves them as they were.
    mutating func listGradingKey(_ key: Key, _ grading: ListGrading) -> [AppCommand] {
        var picker = grading.picker
        switch picker.answer(key) {
        case .set:
            listGrading = nil
            let request: SessionRequest = grading.ids.count == 1 && tags.isEmpty
                ? .grade(recordID: grading.ids[0], picker.change) : .gradeRecords(grading.ids, picker.change)
            return [.session(request)] + drainQueuedScans()
        case .leave:
            listGrading = nil
            return drainQueuedScans()
        case .redraw:
            return [.redraw]
        case .notARating:
            say("A rating is 0 to 5 stars", isError: true)
            return []
        case .none:
            listGrading = ListGrading(picker: picker, ids: grading.ids)
            return []
        }
    }

    /// Records the session tagged: every record shown (`T`), or a copy whose label was
    /// scanned in tag-by-scan mode (`title` names it; the selection goes to it).
    mutating func applyTagged(_ ids: [Int64], title: String?) {
        tags.formUnion(ids)
        if let title, let id = ids.first {
            selectWhenSeen = id
            selectedRecord = id
            sentQuery = nil
            received = false
            say("Tagged \(title) (\(tags.count.grouped) tagged)")
        } else {
            say("Tagged \(ids.count == 1 ? "1 record" : "\(ids.count.grouped) records") shown (\(tags.count.grouped) tagged)")
        }
    }
}
