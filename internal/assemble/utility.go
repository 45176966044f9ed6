package assemble

import "math"

// Utility returns the score of an item from its normalised parts.
func Utility(frequency, relevance, recency float64) float64 {
	return WeightFrequency*clamp01(frequency) + WeightRelevance*clamp01(relevance) + WeightRecency*clamp01(recency)
}

// Frequency normalises a use count against the largest among the
// candidates on a log scale, so that one much-used item does not flatten
// every other: log(1+uses) / log(1+maxUses); 0 when nothing was used.
func Frequency(uses, maxUses int) float64 {
	if uses <= 0 || maxUses <= 0 {
		return 0
	}
	return math.Log1p(float64(uses)) / math.Log1p(float64(maxUses))
}

// Recency is 1 for an item of today and halves every HalfLifeDays.
func Recency(ageDays int) float64 {
	if ageDays <= 0 {
		return 1
	}
	return math.Exp2(-float64(ageDays) / HalfLifeDays)
}

func clamp01(x float64) float64 {
	switch {
	case x < 0 || math.IsNaN(x):
		return 0
	case x > 1:
		return 1
	default:
		return x
	}
}
