import CratesCore

extension AppState {
    /// The pressing picker: printable keys narrow the candidates (`CandidateFilter`: a
    /// catalogue number's characters, a country, a year, a label, read off the spine), the
    /// arrows move, Enter chooses, Esc clears what was typed and then goes back. For barcode
    /// ambiguities and searches alike.
    mutating func pickerKey(_ key: Key, _ state: PickerState) -> [AppCommand] {
        var state = state
        if case .character(let c) = key, !state.loading {
            guard state.filter.count < 60 else { return [] }
            state.filter.append(c)
            state.selected = 0
            mode = .picker(state)
            return []
        }
        if key == .backspace || key == .control("u") {
            if key == .backspace, !state.filter.isEmpty { state.filter.removeLast() } else { state.filter = "" }
            state.selected = 0
            mode = .picker(state)
            return []
        }
        guard let action = KeyMap.action(for: key, in: .picker) else { return [] }
        let shown = state.shown
        let last = max(0, shown.count - 1)
        let page = max(1, pickerLayout.perPage - 1)
        switch action {
        case .moveDown: state.selected = min(last, state.selected + 1)
        case .moveUp: state.selected = max(0, state.selected - 1)
        case .pageDown: state.selected = min(last, state.selected + page)
        case .pageUp: state.selected = max(0, state.selected - page)
        case .top: state.selected = 0
        case .bottom: state.selected = last
        case .open:
            guard shown.indices.contains(state.selected) else {
                if !state.loading { say("No pressing matches \"\(state.filter)\": Backspace to widen", isError: true) }
                return []
            }
            return choose(shown[state.selected], in: state)
        case .openInBrowser:
            guard shown.indices.contains(state.selected) else { return [] }
            return [.session(.openURL("https://www.discogs.com/release/\(shown[state.selected].releaseID)"))]
        case .back:
            if !state.filter.isEmpty {
                state.filter = ""
                state.selected = 0
                break
            }
            if let form = state.search {
                // Back to the search, to change it.
                mode = .form(form)
                return []
            }
            return goBack(state.back, settled: false)
        case .help:
            mode = .help(scroll: 0)
            return []
        case .redraw: return [.redraw]
        default: break
        }
        mode = .picker(state)
        return []
    }

    /// The person chose `chosen`: it resolves the picker's record (its own values kept), or
    /// is added as a new record.
    mutating func choose(_ chosen: ReleaseCandidate, in state: PickerState) -> [AppCommand] {
        guard let recordID = state.recordID else {
            say("Adding \(chosen.displayPressing)")
            return [.session(.add(.release(chosen.releaseID), method: .search))] + goBack(state.back, settled: false)
        }
        say("Matched to \(chosen.displayPressing)")
        return [.session(.choose(recordID: recordID, releaseID: chosen.releaseID))] + goBack(state.back, settled: true)
    }
}
