import CratesCore

extension AppState {
    /// Applies one event; returns what the workers should do, including what to ask the store
    /// for so that the screen's rows are there.
    public mutating func handle(_ event: AppEvent) -> [AppCommand] {
        let commands = handleEvent(event)
        return commands + storeRequests() + coverRequests()
    }

    mutating func handleEvent(_ event: AppEvent) -> [AppCommand] {
        switch event {
        case .key(let key, let at):
            return handleKey(key, at: at)
        case .resize(let width, let height):
            self.width = max(1, width)
            self.height = max(1, height)
            keepSelectionVisible()
            return []
        case .session(let event):
            return handleSession(event)
        }
    }

    mutating func handleSession(_ event: SessionEvent) -> [AppCommand] {
        switch event {
        case .window(let window):
            apply(window)
            // The store changed (here or in another process: a `crates move`, an import):
            // the places view reads its counts again.
            if case .locations = mode { return [.session(.loadLocations)] }
        case .ask(let question):
            questions.append(question)
        case .details(let details):
            if case .details(var state) = mode, state.recordID == details.record.id {
                if let shown = state.details, shown.release?.id != details.release?.id {
                    forgetCovers(of: details.record.id)  // matched (or matched again): its cover is another
                }
                state.details = details
                mode = .details(state)
            } else if case .picker(var picker) = mode, picker.recordID == details.record.id, picker.search == nil {
                picker.candidates = details.record.candidates
                picker.loading = false
                picker.selected = min(picker.selected, max(0, details.record.candidates.count - 1))
                mode = .picker(picker)
            }
            fillForm(with: details)
            applyNeedsDetails(details)
        case .found(let answer):
            applyFound(answer)
        case .catalogue(let edition):
            catalogue = edition
        case .needsPerson(let ids):
            return applyNeeds(ids)
        case .added(let id):
            // Select it, and ask the store where it is (it is not in the window held yet).
            selectWhenSeen = id
            selectedRecord = id
            sentQuery = nil
            received = false
        case .deleted(let count, let token):
            pushUndo(Undo(token: token, count: count))
            say(count == 1 ? "Deleted 1 record: u to undo" : "Deleted \(count) records: u to undo")
        case .edited(let text, let token):
            pushUndo(Undo(token: token, count: 1))
            say("\(text) (u in the list undoes)")
        case .restored(let count):
            say(count == 1 ? "Restored 1 record" : "Restored \(count) records")
        case .discogs(let status):
            discogs = status
        case .camera(let status):
            camera = status
        case .waiting(let count):
            waiting = count
        case .message(let text, let isError):
            say(text, isError: isError)
        case .sync(let status):
            sync = status
        case .syncQuestion(let question):
            syncQuestion = question
        case .syncConflicts(let conflicts):
            applyConflicts(conflicts)
        case .cameraScan(let scan):
            if let ignored = scan.intent.ignoredMessage {
                say(ignored)
                return []
            }
            // A release URL goes through the prompt's parser too (`CodeEntry`), so both
            // intents are the scan's text; queued behind an open dialog like any camera scan.
            if dialogOpen {
                queued.append(QueuedScan(code: scan.data, method: .camera))
                return []
            }
            return submit(scan.data, method: .camera)
        case .location, .locations, .moved, .select:
            return handleLocationEvent(event)
        case .statistics(let statistics):
            applyStatistics(statistics)
        case .signIn(let event):
            return applySignIn(event)
        case .genres(let names):
            applyGenres(names)
        case .cover(let request, let cover):
            applyCover(request, cover)
        }
        return []
    }

    mutating func say(_ text: String, isError: Bool = false) {
        message = Message(text: ControlCharacters.cleaned(text), isError: isError)
        keepSelectionVisible()  // a long message takes rows from the list
    }

    // MARK: Keys

    mutating func handleKey(_ key: Key, at time: Double) -> [AppCommand] {
        if prompt != nil { return promptKey(key, at: time) }
        if filterEditing { return filterKey(key) }
        // A form is a text field: digits are typed into it, Ctrl-C cancels it.
        if case .form(let form) = mode { return formKey(key, form) }
        if case .signIn(let state) = mode { return signInKey(key, state) }
        if key == .control("c") { return quit() }
        if key == .control("z") { return [.suspend] }
        // So is the picker's narrowing: a catalogue number's digits narrow, not scan.
        if case .picker(let state) = mode { return pickerKey(key, state) }

        // In the rating picker a digit is the stars (`ratingDigit`), not a scan.
        if case .details(let state) = mode, let picker = state.picker, picker.kind == .rating, key.ratingDigit != nil {
            return gradePickerKey(key, picker, state)
        }
        // A digit anywhere outside a text field starts barcode entry: a wedge scanner types
        // digits then Enter, and none of its keys may be taken as a command.
        if case .character(let c) = key, c.isASCII, c.isNumber {
            if confirmDelete != nil {
                confirmDelete = nil
                say("Not deleted")
            }
            prompt = Prompt(text: String(c), error: nil, firstKeyAt: time, lastKeyAt: time, allFast: true)
            return []
        }

        if let confirm = confirmDelete {
            confirmDelete = nil
            if key == .character("y") || key == .character("Y") {
                if case .details = mode { mode = .list }
                return [.session(.delete(confirm.ids))] + drainQueuedScans()
            }
            say("Not deleted")
            return drainQueuedScans()
        }

        if let question = syncQuestion {
            syncQuestion = nil
            if key == .character("y") || key == .character("Y") { return [.session(question.yes)] }
            // After the sync's summary, which the answer never hides.
            say([message?.text, question.declined].compactMap { $0 }.joined(separator: " "), isError: message?.isError ?? false)
            return []
        }

        if let question = questions.first, case .list = mode, let answer = Self.answer(to: question, key: key) {
            questions.removeFirst()
            if let request = question.request(for: answer) {
                if case .moveHere(let move) = question.kind, answer == .yes {
                    say("Moving \(move.title)")
                } else {
                    say("Adding \(question.subject)")  // the session says whether it was
                }
                return [.session(request)] + drainQueuedScans()
            }
            if case .moveHere(let move) = question.kind {
                say("Not moved: \(move.title) stays \(move.from.map { "in \($0.name)" } ?? "in no place")")
            } else {
                say("Not added: \(question.subject)")
            }
            return drainQueuedScans()
        }

        switch mode {
        case .list: return listKey(key)
        case .details(let state): return detailsKey(key, state)
        case .picker(let state): return pickerKey(key, state)
        case .help(let scroll): return helpKey(key, scroll)
        case .form(let form): return formKey(key, form)
        case .needs: return needsKey(key)
        case .locations(let state): return locationsKey(key, state)
        case .statistics(let state): return statisticsKey(key, state)
        case .signIn(let state): return signInKey(key, state)
        case .conflicts(let state): return conflictsKey(key, state)
        }
    }

    /// The answer `key` gives to `question`: y or n, Enter the question's default (yes to a
    /// move, no to the others), Esc no, c another copy (to a move); nil for any other key.
    static func answer(to question: AddQuestion, key: Key) -> AddQuestion.Answer? {
        switch key {
        case .character("y"), .character("Y"): .yes
        case .character("n"), .character("N"), .escape: .no
        case .enter: question.defaultAnswer
        case .character("c"), .character("C"):
            if case .moveHere = question.kind { .anotherCopy } else { nil }
        default: nil
        }
    }

    mutating func quit() -> [AppCommand] {
        hasQuit = true
        return [.quit]
    }

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
            guard let item = selectedItem else { return [] }
            confirmDelete = ConfirmDelete(ids: [item.recordID], label: item.displayTitle)
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
            guard let item = selectedItem else { return [] }
            if item.lookupState == .handEntered {
                say("Entered by hand: never looked up (s searches Discogs to link it)")
                return []
            }
            say("Looking up \(item.gtin.isEmpty ? item.displayTitle : item.gtin) again")
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
        case .mediaGrade, .sleeveGrade, .rate: break  // the details view's
        case .help: mode = .help(scroll: 0)
        case .back:
            // The filter first, then the statistics' bar, then the place (the whole
            // collection again).
            message = nil
            if !filter.isEmpty {
                filter = ""
            } else if facet != nil {
                showFacet(nil)
            } else if location != nil {
                return leaveLocation()
            }
        case .locations:
            return openLocations()
        case .sortOrder:
            // The selected record stays selected: the store locates it in the new order.
            order = order.next
            say("Sorted by \(order.rawValue)")
            return [.rememberOrder(order)]
        case .statistics:
            return openStatistics()
        case .conflicts:
            return openConflicts()
        case .keepCrates, .takeDiscogs, .keepCratesForAll, .takeDiscogsForAll: break  // the conflicts view's
        case .covers: toggleCovers()
        case .quit: return quit()
        case .redraw: return [.redraw]
        }
        return []
    }

    mutating func detailsKey(_ key: Key, _ state: DetailsState) -> [AppCommand] {
        if let picker = state.picker { return gradePickerKey(key, picker, state) }
        guard let action = KeyMap.action(for: key, in: .details) else { return [] }
        var state = state
        switch action {
        case .moveDown: state.scroll += 1
        case .moveUp: state.scroll = max(0, state.scroll - 1)
        case .pageDown: state.scroll += listHeight - 1
        case .pageUp: state.scroll = max(0, state.scroll - (listHeight - 1))
        case .top: state.scroll = 0
        case .bottom: state.scroll = Int.max / 2
        case .back, .quit:
            mode = .list
            return drainQueuedScans()
        case .delete:
            let label = state.details.map(\.displayTitle) ?? "this record"
            confirmDelete = ConfirmDelete(ids: [state.recordID], label: label)
            return []
        case .openInBrowser:
            guard let url = state.details?.release?.url else {
                say("No Discogs page yet: the record is not matched", isError: true)
                return []
            }
            return [.session(.openURL(url))]
        case .retry:
            if state.details?.record.lookupState == .handEntered {
                say("Entered by hand: never looked up (s searches Discogs to link it)")
                return []
            }
            say("Looking up again")
            return [.session(.retry(state.recordID)), .session(.loadDetails(state.recordID))]
        case .open:
            if let details = state.details, details.record.lookupState == .ambiguous {
                mode = .picker(PickerState(
                    recordID: details.record.id, subject: details.record.subject, candidates: details.record.candidates,
                    loading: false, back: .details(details.record.id)))
                return []
            }
        case .search:
            // For this record, whatever its state: a wrong match is set right this way too.
            return openForm(.search(recordID: state.recordID), details: state.details, back: .details(state.recordID))
        case .edit:
            return openForm(.edit(recordID: state.recordID), details: state.details, back: .details(state.recordID))
        case .enterByHand: return enterByHand(from: state)
        case .help: mode = .help(scroll: 0)
            return []
        case .redraw: return [.redraw]
        case .mediaGrade, .sleeveGrade, .rate:
            openGradePicker(action, state)
            return []
        case .conflicts:
            return openConflicts()
        case .covers: toggleCovers()
        default: break
        }
        mode = .details(state)
        return []
    }

    mutating func helpKey(_ key: Key, _ scroll: Int) -> [AppCommand] {
        guard let action = KeyMap.action(for: key, in: .help) else { return [] }
        switch action {
        case .moveDown: mode = .help(scroll: scroll + 1)
        case .moveUp: mode = .help(scroll: max(0, scroll - 1))
        case .pageDown: mode = .help(scroll: scroll + listHeight - 1)
        case .pageUp: mode = .help(scroll: max(0, scroll - (listHeight - 1)))
        case .top: mode = .help(scroll: 0)
        case .back, .quit: mode = walk != nil ? .needs : .list
        case .redraw: return [.redraw]
        default: break
        }
        return []
    }

    // MARK: Text fields

    mutating func promptKey(_ key: Key, at time: Double) -> [AppCommand] {
        guard var prompt else { return [] }
        let fast = prompt.lastKeyAt > 0 && time - prompt.lastKeyAt <= Self.wedgeKeyInterval
        switch key {
        case .enter:
            self.prompt = nil
            let text = prompt.text
            guard !text.isEmpty else { return drainQueuedScans() }
            let wedge = prompt.allFast && (fast || prompt.text.count > 1) && time - prompt.firstKeyAt < Double(text.count) * Self.wedgeKeyInterval + 0.05
            let commands = submit(text, method: wedge ? .wedge : .typed)
            return commands + (self.prompt == nil ? drainQueuedScans() : [])
        case .escape, .control("c"), .control("g"):
            self.prompt = nil
            return drainQueuedScans()
        case .backspace:
            if !prompt.text.isEmpty { prompt.text.removeLast() }
            prompt.error = nil
            prompt.allFast = false
        case .control("u"):
            prompt.text = ""
            prompt.error = nil
        case .character(let c):
            guard prompt.text.count < 200 else { break }
            if prompt.text.isEmpty && prompt.error == nil && prompt.firstKeyAt == 0 {
                prompt.firstKeyAt = time
                prompt.allFast = true
            } else if !fast {
                prompt.allFast = false
            }
            if prompt.error != nil {
                // A new scan after a refused one replaces it rather than appending to it.
                prompt.text = ""
                prompt.error = nil
                prompt.firstKeyAt = time
                prompt.allFast = true
            }
            prompt.text.append(c)
        default:
            break
        }
        prompt.lastKeyAt = time
        self.prompt = prompt
        return []
    }

    mutating func filterKey(_ key: Key) -> [AppCommand] {
        switch key {
        case .enter:
            filterEditing = false
        case .escape, .control("c"), .control("g"):
            filterEditing = false
            filter = ""
        case .backspace:
            if filter.isEmpty {
                filterEditing = false
            } else {
                filter.removeLast()
            }
        case .control("u"):
            filter = ""
        case .down, .up, .pageDown, .pageUp:
            filterEditing = false
            return listKey(key)
        case .character(let c):
            guard filter.count < 100 else { break }
            filter.append(c)
        default:
            break
        }
        return []
    }

    // MARK: Adding

    /// Handles a submitted code from the prompt or a scan source. Refused input keeps the
    /// prompt open with the reason (for keyboard entry), or says so (for the camera). What
    /// the application holds back (a duplicate, an ISBN) comes back as a question.
    mutating func submit(_ text: String, method: AddMethod) -> [AppCommand] {
        let entry: CodeEntry
        do {
            entry = try CodeEntry.parse(text)
        } catch {
            refuse(text, "\(error)", method: method)
            return []
        }
        switch entry {
        case .label:
            // A place's label makes it current; a copy's selects it: the session says which.
            return [.session(.add(entry, method: method))]
        case .release(let id):
            say("Adding Discogs release \(id)")
            return [.session(.add(entry, method: method == .camera ? .camera : .releaseID))]
        case .barcode(let gtin):
            // Said here, before a round trip: a shop's price label is never a record. Whether
            // a record's barcode was added is the session's to say ("Added …", or a question
            // for a duplicate).
            switch gtin.admission {
            case .reserved(let reason):
                refuse(text, reason, method: method)
                return []
            case .label(let code):
                refuse(text, code.notARecordReason, method: method)
                return []
            case .record:
                say(location.map { "Adding \(gtin.canonical) to \($0.name)" } ?? "Adding \(gtin.canonical)")
            case .confirm:
                break  // the application asks
            }
            return [.session(.add(entry, method: method))]
        }
    }

    private mutating func refuse(_ text: String, _ reason: String, method: AddMethod) {
        if method == .camera {
            say("Ignored scan \(TerminalText.truncated(ControlCharacters.cleaned(text), to: 30)): \(reason)", isError: true)
        } else {
            prompt = Prompt(text: ControlCharacters.cleaned(text), error: reason, firstKeyAt: 0, lastKeyAt: 0, allFast: false)
        }
    }

    /// Applies camera scans that waited for a dialog, once none is open.
    mutating func drainQueuedScans() -> [AppCommand] {
        var commands: [AppCommand] = []
        while !dialogOpen, !queued.isEmpty {
            let scan = queued.removeFirst()
            commands += submit(scan.code, method: scan.method)
        }
        return commands
    }
}
