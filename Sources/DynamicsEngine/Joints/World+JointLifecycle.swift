// Where a joint is born and dies: its slot and its links in both bodies' joint lists, and the
// contacts it forbids.

extension World {
    // MARK: Joints

    package func isValid(_ id: JointID) -> Bool { joints.isValid(id.index, generation: id.generation) }

    @discardableResult
    package func createJoint(_ d: JointDef) -> JointID? {
        guard isValid(d.bodyA), isValid(d.bodyB), d.bodyA != d.bodyB else { return nil }
        var j = Joint()
        j.def = d
        j.def.localAxisA = d.localAxisA.normalized
        if j.def.localAxisA == .zero { j.def.localAxisA = Vec2(1, 0) }
        j.bodyA = d.bodyA.index; j.bodyB = d.bodyB.index
        let index = joints.insert(j)
        linkJoint(index)
        // joined bodies must not keep a contact they no longer want
        if !d.collideConnected { destroyContactsBetween(d.bodyA.index, d.bodyB.index) }
        wake(bodyIndex: d.bodyA.index); wake(bodyIndex: d.bodyB.index)
        return JointID(index: index, generation: joints.generation(index))
    }

    package func destroyJoint(_ id: JointID) {
        guard isValid(id) else { return }
        let j = joints[Int(id.index)]
        wake(bodyIndex: j.bodyA); wake(bodyIndex: j.bodyB)
        destroyJointInternal(id.index)
        // the bodies may collide again: let their shapes look for pairs
        if !j.def.collideConnected { markShapesMoved(j.bodyA); markShapesMoved(j.bodyB) }
    }

    func markShapesMoved(_ bi: Int32) {
        var s = bodies[Int(bi)].headShape
        while s >= 0 {
            if !shapes[Int(s)].enlarged { shapes[Int(s)].enlarged = true; broadPhase.movedProxies.append(s) }
            s = shapes[Int(s)].nextShape
        }
    }

    func destroyJointInternal(_ ji: Int32) {
        unlinkJoint(ji)
        joints.remove(ji)
    }

    private func linkJoint(_ ji: Int32) {
        let j = joints[Int(ji)]
        for side in 0..<2 {
            let bi = Int(side == 0 ? j.bodyA : j.bodyB)
            let key = (ji << 1) | Int32(side)
            let head = bodies[bi].headJointKey
            joints[Int(ji)].prevKey.set(side, -1)
            joints[Int(ji)].nextKey.set(side, head)
            if head >= 0 { joints[Int(head >> 1)].prevKey.set(Int(head & 1), key) }
            bodies[bi].headJointKey = key
            bodies[bi].jointCount += 1
        }
        broadPhase.grid.movableDirty = true   // the bodies' entries record whether they have joints
        jointGraphChanged()
    }

    private func unlinkJoint(_ ji: Int32) {
        let j = joints[Int(ji)]
        for side in 0..<2 {
            let bi = Int(side == 0 ? j.bodyA : j.bodyB)
            let prev = j.prevKey.get(side), next = j.nextKey.get(side)
            if prev >= 0 { joints[Int(prev >> 1)].nextKey.set(Int(prev & 1), next) } else { bodies[bi].headJointKey = next }
            if next >= 0 { joints[Int(next >> 1)].prevKey.set(Int(next & 1), prev) }
            bodies[bi].jointCount -= 1
        }
        broadPhase.grid.movableDirty = true
        jointGraphChanged()
    }

    /// Whether a joint that disables collision links the two bodies.
    func jointPreventsCollision(_ a: Int32, _ b: Int32) -> Bool {
        let (x, y) = bodies[Int(a)].jointCount <= bodies[Int(b)].jointCount ? (a, b) : (b, a)
        var k = bodies[Int(x)].headJointKey
        while k >= 0 {
            let j = joints[Int(k >> 1)]
            let other = (k & 1) == 0 ? j.bodyB : j.bodyA
            if other == y && !j.def.collideConnected { return true }
            k = j.nextKey.get(Int(k & 1))
        }
        return false
    }
}
