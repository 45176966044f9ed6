package eval

// JudgeBlock is judgeBlock, for the tests of package eval_test.
var JudgeBlock = judgeBlock
