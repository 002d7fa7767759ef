// The awake list and the sleeping islands: which bodies the step moves, and which wake together.

extension World {
    // MARK: Awake list and sleeping islands

    func addToAwake(_ bi: Int32) {
        guard bodies[Int(bi)].awakeIndex < 0 else { return }
        bodies[Int(bi)].awakeIndex = Int32(awakeBodies.count)
        awakeBodies.append(bi)
    }

    func removeFromAwake(_ bi: Int32) {
        let ai = Int(bodies[Int(bi)].awakeIndex)
        guard ai >= 0 else { return }
        let last = awakeBodies.removeLast()
        if ai < awakeBodies.count {
            awakeBodies[ai] = last
            bodies[Int(last)].awakeIndex = Int32(ai)
        }
        bodies[Int(bi)].awakeIndex = -1
    }

    func newSleepIsland(_ members: [Int32]) -> Int32 {
        if let f = freeSleepIslands.popLast() { sleepIslands[Int(f)] = members; return f }
        sleepIslands.append(members)
        return Int32(sleepIslands.count - 1)
    }

    func removeFromSleepIsland(_ bi: Int32) {
        let isl = Int(bodies[Int(bi)].sleepIsland)
        guard isl >= 0 else { return }
        if let k = sleepIslands[isl].firstIndex(of: bi) { sleepIslands[isl].remove(at: k) }
        bodies[Int(bi)].sleepIsland = -1
        if sleepIslands[isl].isEmpty { freeSleepIslands.append(Int32(isl)) }
    }

    /// Wakes the body and every body that fell asleep with it.
    func wake(bodyIndex bi: Int32) {
        guard bi >= 0, Int(bi) < bodies.count else { return }
        let b = bodies[Int(bi)]
        guard b.isAlive, b.type != .static else { return }
        if b.awakeIndex >= 0 { bodies[Int(bi)].sleepTime = 0; return }
        let isl = Int(b.sleepIsland)
        if isl >= 0 {
            let members = sleepIslands[isl]
            sleepIslands[isl] = []
            freeSleepIslands.append(Int32(isl))
            for m in members {
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
