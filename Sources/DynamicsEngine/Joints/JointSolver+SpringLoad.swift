// How loaded a joint's bodies are with springs, for `SpringStep`'s bound on stiff springs (its
// "Stiff springs" section). Read when the distance, revolute and weld joints are prepared.

extension JointSolver {
    /// The spring's frequency (Hz) acting on the linear (`angular` false) or the angular degrees of
    /// freedom, and 0 for every other joint and part: distance springs and weld linear springs
    /// load the linear ones, revolute angular springs and weld angular springs the angular ones.
    @inline(__always)
    static func springHertz(_ d: JointDef, angular: Bool) -> Float {
        switch d.kind {
        case .distance: return !angular && d.enableSpring && d.minLength < d.maxLength ? max(d.hertz, 0) : 0
        case .revolute: return angular && d.enableSpring ? max(d.hertz, 0) : 0
        case .weld: return max(angular ? d.angularHertz : d.linearHertz, 0)
        case .prismatic, .target: return 0
        }
    }

    /// How much stiffer the springs on the more loaded of joint `j`'s bodies are together than `j`'s
    /// own spring of `hertz` (≥ 1; see `SpringStep`, "Stiff springs"). Walks the joint lists of the
    /// joint's dynamic bodies only (a fixed anchor's list may hold every attachment of an animator,
    /// and a body that does not move needs no bound), so a spring costs the degree of its bodies.
    static func springLoadFactor(_ j: UnsafePointer<Joint>, hertz: Float, angular: Bool, bodies: UnsafePointer<Body>,
                                 joints: UnsafePointer<Joint>) -> Float {
        @inline(__always) func inverse(_ b: Int32) -> Float {
            let body = bodies[Int(b)]
            guard body.type == .dynamic else { return 0 }
            return angular ? body.invInertia : body.invMass
        }
        @inline(__always) func share(_ mine: Float, _ other: Float) -> Float {
            let sum = mine + other
            return sum > 0 ? (mine + (mine * other).squareRoot()) / sum : 0
        }
        let a = j.pointee.bodyA, b = j.pointee.bodyB
        let invA = inverse(a), invB = inverse(b)
        let omega2 = hertz * hertz   // (2π)² cancels in the ratio
        var worst: Float = 1
        for (body, mine, other) in [(a, invA, invB), (b, invB, invA)] where mine > 0 {
            let own = omega2 * share(mine, other)
            guard own > 0 else { continue }
            var total: Float = 0
            var key = bodies[Int(body)].headJointKey
            while key >= 0 {
                let k = joints + Int(key >> 1)
                let side = Int(key & 1)
                let f = springHertz(k.pointee.def, angular: angular)
                if f > 0 {
                    let partner = side == 0 ? k.pointee.bodyB : k.pointee.bodyA
                    total += f * f * share(mine, inverse(partner))
                }
                key = k.pointee.nextKey.get(side)
            }
            worst = max(worst, total / own)
        }
        return worst.isFinite ? worst : 1
    }
}
