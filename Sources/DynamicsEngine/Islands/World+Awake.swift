// Keeping the bodies' back links in step with `BodySets`: joining and leaving the awake list,
// falling asleep in an island and waking with it.

extension World {
    // MARK: Awake list and sleeping islands

    func addToAwake(_ bi: Int32) {
        guard bodies[Int(bi)].awakeIndex < 0 else { return }
        bodies[Int(bi)].awakeIndex = sets.appendAwake(bi)
        jointGraphChanged(body: bi)
    }

    func removeFromAwake(_ bi: Int32) {
        let ai = Int(bodies[Int(bi)].awakeIndex)
        guard ai >= 0 else { return }
        jointGraphChanged(body: bi)
        if let moved = sets.removeAwake(at: ai) { bodies[Int(moved)].awakeIndex = Int32(ai) }
        bodies[Int(bi)].awakeIndex = -1
    }

    func removeFromSleepIsland(_ bi: Int32) {
        let isl = Int(bodies[Int(bi)].sleepIsland)
        guard isl >= 0 else { return }
        bodies[Int(bi)].sleepIsland = -1
        sets.remove(bi, fromSleepIsland: isl)
    }

    /// Wakes the body and every body that fell asleep with it.
    func wake(bodyIndex bi: Int32) {
        guard bi >= 0, Int(bi) < bodies.count else { return }
        let b = bodies[Int(bi)]
        guard b.isAlive, b.type != .static else { return }
        if b.awakeIndex >= 0 { bodies[Int(bi)].sleepTime = 0; return }
        let isl = Int(b.sleepIsland)
        if isl >= 0 {
            for m in sets.takeSleepIsland(isl) {
                bodies[Int(m)].sleepIsland = -1
                bodies[Int(m)].sleepTime = 0
                addToAwake(m)
            }
        } else {
            bodies[Int(bi)].sleepTime = 0
            addToAwake(bi)
        }
    }
}

extension World {
    // MARK: Keeping bodies awake

    /// Keeps body `ids[k]` awake for every k where `flags[k]`: a sleeping body wakes, with every
    /// body that fell asleep with it; an awake one's sleep timer restarts, so it cannot sleep for
    /// another `timeToSleep`. Box2D v3's `b2Body_ApplyForce(…, wake: true)`, for a force that
    /// means to keep moving its body (a field whose pattern changes with time). Invalid ids and
    /// bodies that are not dynamic are skipped; the arrays are read up to the shorter one. Returns
    /// whether a body woke.
    ///
    /// Flags, not a closure per body: a field's crowd of 10 000 items called it every step, and
    /// the call and the body's record read twice were 6 % of such a step.
    package func keepAwake(_ ids: [BodyID], where flags: [Bool]) -> Bool {
        flags.withUnsafeBufferPointer { flags in keepAwake(ids, where: flags) }
    }

    /// `keepAwake(_:where:)` with the flags in a buffer.
    package func keepAwake(_ ids: [BodyID], where flags: UnsafeBufferPointer<Bool>) -> Bool {
        var woke = false
        for k in 0..<min(ids.count, flags.count) where flags[k] {
            let id = ids[k]
            guard isValid(id) else { continue }
            // the base again for each body: a wake below writes the pool through its setter
            let b = bodies.base + Int(id.index)
            guard b.pointee.type == .dynamic else { continue }
            if b.pointee.awakeIndex >= 0 {
                b.pointee.sleepTime = 0
            } else {
                wake(bodyIndex: id.index)
                woke = true
            }
        }
        return woke
    }

    /// The part of `keepAwake(_:where:)` that touches only the bodies themselves, for `ids[range]`:
    /// restarts the sleep timer of each awake dynamic body flagged, and returns whether a flagged
    /// dynamic body is asleep (which only `keepAwake(_:where:)` may wake: waking changes the awake
    /// list and the islands). When no body appears twice in `ids`, several ranges may run at once
    /// on several threads.
    package func restartSleepTimers(_ ids: UnsafeBufferPointer<BodyID>, where flags: UnsafeBufferPointer<Bool>,
                                    _ range: Range<Int>) -> Bool {
        let base = bodies.base
        var sleeper = false
        for k in range where flags[k] {
            let id = ids[k]
            guard isValid(id) else { continue }
            let b = base + Int(id.index)
            guard b.pointee.type == .dynamic else { continue }
            if b.pointee.awakeIndex >= 0 { b.pointee.sleepTime = 0 } else { sleeper = true }
        }
        return sleeper
    }
}
