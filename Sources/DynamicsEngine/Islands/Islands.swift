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
        var parent = [Int32](0..<Int32(n))
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
        for c in contacts where c.isAlive && c.isTouching {
            let a = bodies[Int(c.bodyA)], b = bodies[Int(c.bodyB)]
            if a.awakeIndex < 0 || b.awakeIndex < 0 { continue }
            if a.type == .dynamic && b.type == .dynamic {
                union(a.awakeIndex, b.awakeIndex)
            } else if a.type == .kinematic && a.sleepTime == 0 && b.type == .dynamic {
                kinematicTouch.append(b.awakeIndex)
            } else if b.type == .kinematic && b.sleepTime == 0 && a.type == .dynamic {
                kinematicTouch.append(a.awakeIndex)
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
        for k in 0..<n {
            let r = Int(find(Int32(k)))
            minSleep[r] = min(minSleep[r], bodies[Int(awakeBodies[k])].sleepTime)
        }
        for k in kinematicTouch { minSleep[Int(find(k))] = 0 }
        let limit = def.timeToSleep
        var groupIndex = [Int32](repeating: -1, count: n)
        var groups: [[Int32]] = []
        for k in 0..<n {
            let r = Int(find(Int32(k)))
            guard minSleep[r] >= limit else { continue }
            if groupIndex[r] < 0 { groupIndex[r] = Int32(groups.count); groups.append([]) }
            groups[Int(groupIndex[r])].append(awakeBodies[k])
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
