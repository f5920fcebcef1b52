import CratesCore

/// The text fields over the list (a typed or scanned code, the filter) and what Enter
/// adds from them.
extension AppState {
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
        // Check mode adds nothing: the code is checked. The wantlist view wants it.
        if checkMode { return submitCheck(text, method: method) }
        if case .wantlist = mode {
            say("Wanting \(ControlCharacters.cleaned(text))…")
            return [.session(.want(.addCode(text), recheck: nil))]
        }
        let entry: CodeEntry
        do {
            entry = try CodeEntry.parse(text)
        } catch {
            return refuse(text, "\(error)", method: method)
        }
        switch entry {
        case .label(let code):
            // Tag by scan: a copy's label tags its copy (and moves nothing), in any view.
            if tagByScan, code.kind == .copy { return [.session(.tagCopy(code))] }
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
                return refuse(text, reason, method: method)
            case .label(let code):
                return refuse(text, code.notARecordReason, method: method)
            case .record:
                say(location.map { "Adding \(gtin.canonical) to \($0.name)" } ?? "Adding \(gtin.canonical)")
            case .confirm:
                break  // the application asks
            }
            return [.session(.add(entry, method: method))]
        }
    }

    /// A refused code: kept in the session's refusals, in sight until a person's key, with
    /// the bell (`noteRefusal`); a typed or wedge code also stays in the prompt, where the
    /// next scan replaces it.
    private mutating func refuse(_ text: String, _ reason: String, method: AddMethod) -> [AppCommand] {
        if method == .camera {
            say("Ignored scan \(TerminalText.truncated(ControlCharacters.cleaned(text), to: 30)): \(reason)", isError: true)
        } else {
            prompt = Prompt(text: ControlCharacters.cleaned(text), error: reason, firstKeyAt: 0, lastKeyAt: 0, allFast: false)
        }
        return noteRefusal(text, reason, method: method)
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
