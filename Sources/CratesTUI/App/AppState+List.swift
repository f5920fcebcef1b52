import CratesCore

/// Keys in the list: what `KeyMap` binds there.
extension AppState {
    mutating func listKey(_ key: Key) -> [AppCommand] {
        guard let action = KeyMap.action(for: key, in: .list) else {
            if case .character(let c) = key { say("\(c): no such key (? for help)") }
            return []
        }
        switch action {
        case .moveDown: moveSelection(by: 1)
        case .moveUp: moveSelection(by: -1)
        case .pageDown: moveSelection(by: listHeight - 1)
        case .pageUp: moveSelection(by: -(listHeight - 1))
        case .top: moveSelection(toRowFrom: 0, forward: true)
        case .bottom: moveSelection(toRowFrom: list.lineCount - 1, forward: false)
        case .nextSection: jumpSection(forward: true)
        case .previousSection: jumpSection(forward: false)
        case .filter:
            filterEditing = true
        case .add:
            prompt = Prompt(text: "", error: nil, firstKeyAt: 0, lastKeyAt: 0, allFast: false)
        case .delete:
            guard let ids = actionTargets else { return [] }
            confirmDelete = ConfirmDelete(ids: ids, label: targetsLabel)
        case .undo:
            guard let undo = undoStack.popLast() else {
                say("Nothing to undo")
                return []
            }
            return [.session(.undo(undo.token))]
        case .open:
            guard let item = selectedItem else { return [] }
            if item.lookupState == .ambiguous {
                mode = .picker(PickerState(
                    recordID: item.recordID, subject: item.gtin.isEmpty ? item.displayTitle : item.gtin, candidates: [],
                    loading: true))
            } else {
                mode = .details(DetailsState(recordID: item.recordID, details: nil, scroll: 0))
            }
            return [.session(.loadDetails(item.recordID))]
        case .openInBrowser:
            // The row does not hold the page's address: the session reads it, and says why
            // when it cannot open it (no browser here, not matched).
            guard let item = selectedItem else { return [] }
            return [.session(.openPage(recordID: item.recordID))]
        case .retry:
            if let ids = actionTargets, !tags.isEmpty {
                say(retrySaid(targetsLabel, plural: tags.count > 1))
                return [.session(.refresh(ids))]
            }
            guard let item = selectedItem else { return [] }
            if item.lookupState == .handEntered {
                say("Entered by hand: never looked up (s searches Discogs to link it)")
                return []
            }
            say(retrySaid(item.gtin.isEmpty ? item.displayTitle : item.gtin))
            return [.session(.retry(item.recordID))]
        case .search: return openSearchFromList()
        case .enterByHand: return openForm(.handEntry(recordID: nil), back: .list)
        case .edit:
            guard let item = selectedItem else { return [] }
            return openForm(.edit(recordID: item.recordID), back: .list)
        case .needsPerson: return openNeeds()
        case .leave, .nextField, .previousField, .submit, .clearField: break
        case .authenticate: return openSignIn(back: .list)
        case .sync:
            say("Syncing with Discogs…")
            return [.session(.sync)]
        case .mediaGrade, .sleeveGrade, .rate, .tag, .tagShown, .untagAll, .tagByScan, .moveToPlace, .export:
            return tagKey(action)
        case .help: mode = .help(scroll: 0)
        case .back:
            // The filter first, then the statistics' bar, then the place (the whole
            // collection again).
            message = nil
            if !filter.isEmpty {
                filter = ""
            } else if facet != nil {
                if let commands = backToChart() { return commands }
                showFacet(nil)
            } else if location != nil {
                return leaveLocation()
            }
        case .locations:
            return openLocations()
        case .sortOrder:
            // The selected record stays selected: the store locates it in the new order.
            order = order.next
            say("Sorted by \(orderText)")
            return [.rememberOrder(order)]
        case .reverseOrder:
            descending.toggle()
            say("Sorted by \(orderText) (R again: \(descending ? "ascending" : "descending"))")
        case .flatList:
            flat.toggle()
            say(flat ? "One list by \(orderText), no genre sections (F again: sections)" : "In genre sections, by \(orderText)")
        case .statistics:
            return openStatistics()
        case .conflicts:
            return openConflicts()
        case .keepCrates, .takeDiscogs, .keepCratesForAll, .takeDiscogsForAll: break  // the conflicts view's
        case .covers: toggleCovers()
        case .checkMode: return toggleCheckMode()
        case .wantlist: return openWantlist()
        case .loans: return openLoans()
        case .refusals: return openRefusals()
        case .bought, .want, .unwant, .prices, .lookUpAgain, .rateUp, .rateDown: break  // check mode's, the wantlist's
        case .quit: return quit()
        case .redraw: return [.redraw]
        }
        return []
    }
}

extension AppState {
    /// The list's order as the title bar and the messages say it: "artist", "added ↓" (the
    /// other way round: `R`), "title, flat" (no genre sections: `F`).
    var orderText: String {
        order.rawValue + (descending ? " ↓" : "") + (flat ? ", flat" : "")
    }
}
