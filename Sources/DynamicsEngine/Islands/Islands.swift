extension World {
    /// Puts resting islands to sleep.
    ///
    /// Islands are found afresh each step with union–find over the awake bodies, joined by touching
    /// contacts and joints between dynamic bodies (static and kinematic bodies do not join islands, or
    /// everything on one floor would be one island). An island sleeps when every body in it has been
    /// slower than the sleep speed for `timeToSleep`; a moving kinematic body keeps what it touches
    /// awake. Bodies that sleep together are recorded together, so touching one wakes them all.
    /// Union–find in awake-list order with the smaller index as root is deterministic.
    func updateSleep(dt: Float) {
        let n = awakeBodies.count
        guard n > 0 else { return }
        let limit = def.timeToSleep
        // An island sleeps when every member has rested `limit` seconds: with no such body there
        // is nothing to find, and the walk over every contact below is skipped.
        let bp = bodies.base
        let anySleepy = awakeBodies.withUnsafeBufferPointer { awake in awake.contains { bp[Int($0)].sleepTime >= limit } }
        guard anySleepy else { return }
        // Union–find over raw buffers: an array captured by these local functions would cost a
        // dynamic exclusivity check on every access (that was 8 % of a step in `smash`).
        let parent = UnsafeMutablePointer<Int32>.allocate(capacity: n)
        defer { parent.deallocate() }
        for k in 0..<n { parent[k] = Int32(k) }
        func find(_ x: Int32) -> Int32 {
            var r = x
            while parent[Int(r)] != r { r = parent[Int(r)] }
            var y = x
            while parent[Int(y)] != r { let nx = parent[Int(y)]; parent[Int(y)] = r; y = nx }
            return r
        }
        func union(_ a: Int32, _ b: Int32) {
            let ra = find(a), rb = find(b)
            if ra == rb { return }
            if ra < rb { parent[Int(rb)] = ra } else { parent[Int(ra)] = rb }
        }
        var minSleep = [Float](repeating: .greatestFiniteMagnitude, count: n)
        var kinematicTouch: [Int32] = []
        // The touching contacts with an awake body are the ones the solver just prepared, with
        // their bodies' awake indices (`awakeCount` for a static or sleeping body).
        let solved = solvedContactBuffer.pointer
        let dummy = Int32(n)
        let contactCount = max(0, solvedContactCount)
        awakeBodies.withUnsafeBufferPointer { awake in
            for k in 0..<contactCount {
                let sc = solved[k]
                if sc.a == dummy || sc.b == dummy { continue }
                let a = bp + Int(awake[Int(sc.a)]), b = bp + Int(awake[Int(sc.b)])
                if a.pointee.type == .dynamic && b.pointee.type == .dynamic {
                    union(sc.a, sc.b)
                } else if a.pointee.type == .kinematic && a.pointee.sleepTime == 0 && b.pointee.type == .dynamic {
                    kinematicTouch.append(sc.b)
                } else if b.pointee.type == .kinematic && b.pointee.sleepTime == 0 && a.pointee.type == .dynamic {
                    kinematicTouch.append(sc.a)
                }
            }
        }
        for j in joints where j.isAlive {
            let a = bodies[Int(j.bodyA)], b = bodies[Int(j.bodyB)]
            if a.awakeIndex >= 0 && b.awakeIndex >= 0 && a.type == .dynamic && b.type == .dynamic {
                union(a.awakeIndex, b.awakeIndex)
            } else if a.type == .kinematic && a.sleepTime == 0 && b.awakeIndex >= 0 {
                kinematicTouch.append(b.awakeIndex)
            } else if b.type == .kinematic && b.sleepTime == 0 && a.awakeIndex >= 0 {
                kinematicTouch.append(a.awakeIndex)
            }
        }
        awakeBodies.withUnsafeBufferPointer { awake in
            minSleep.withUnsafeMutableBufferPointer { ms in
                for k in 0..<n {
                    let r = Int(find(Int32(k)))
                    ms[r] = min(ms[r], bp[Int(awake[k])].sleepTime)
                }
            }
        }
        for k in kinematicTouch { minSleep[Int(find(k))] = 0 }
        var groupIndex = [Int32](repeating: -1, count: n)
        var groups: [[Int32]] = []
        awakeBodies.withUnsafeBufferPointer { awake in
            for k in 0..<n {
                let r = Int(find(Int32(k)))
                guard minSleep[r] >= limit else { continue }
                if groupIndex[r] < 0 { groupIndex[r] = Int32(groups.count); groups.append([]) }
                groups[Int(groupIndex[r])].append(awake[k])
            }
        }
        for members in groups {
            let island = newSleepIsland(members)
            for bi in members {
                removeFromAwake(bi)
                bodies[Int(bi)].sleepIsland = island
                bodies[Int(bi)].linearVelocity = .zero
                bodies[Int(bi)].angularVelocity = 0
                bodies[Int(bi)].force = .zero
                bodies[Int(bi)].torque = 0
            }
        }
    }
}
