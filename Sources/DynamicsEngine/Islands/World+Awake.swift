// Keeping the bodies' back links in step with `BodySets`: joining and leaving the awake list,
// falling asleep in an island and waking with it.

extension World {
    // MARK: Awake list and sleeping islands

    func addToAwake(_ bi: Int32) {
        guard bodies[Int(bi)].awakeIndex < 0 else { return }
        bodies[Int(bi)].awakeIndex = sets.appendAwake(bi)
    }

    func removeFromAwake(_ bi: Int32) {
        let ai = Int(bodies[Int(bi)].awakeIndex)
        guard ai >= 0 else { return }
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

    /// Whether `id` is a dynamic body that is asleep (false for an invalid id).
    package func isSleepingDynamic(_ id: BodyID) -> Bool {
        guard isValid(id) else { return false }
        let b = bodies[Int(id.index)]
        return b.type == .dynamic && b.awakeIndex < 0
    }

    /// Keeps body `ids[k]` awake for every k where `include(k)`: a sleeping body wakes, with every
    /// body that fell asleep with it; an awake one's sleep timer restarts, so it cannot sleep for
    /// another `timeToSleep`. Box2D v3's `b2Body_ApplyForce(…, wake: true)`, for a force that
    /// means to keep moving its body (a field whose pattern changes with time). Invalid ids and
    /// bodies that are not dynamic are skipped.
    package func keepAwake(_ ids: [BodyID], where include: (Int) -> Bool) {
        for k in ids.indices where isValid(ids[k]) && bodies[Int(ids[k].index)].type == .dynamic && include(k) {
            wake(bodyIndex: ids[k].index)
        }
    }
}
