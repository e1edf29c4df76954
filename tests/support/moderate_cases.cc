// SPDX-License-Identifier: Apache-2.0
#include "support/moderate_cases.h"

#include "dmlcpu/dml_compat.h"

namespace dmlcpu_test {

std::vector<std::unique_ptr<OperatorCase>> ModerateGatherSliceCases() {
  std::vector<std::unique_ptr<OperatorCase>> cases;
  cases.push_back(GatherTester()
                      .DataType(DML_TENSOR_DATA_TYPE_FLOAT32)
                      .InputSizes({512, 64})
                      .IndicesSizes({1, 2048})
                      .IndexType(DML_TENSOR_DATA_TYPE_INT64)
                      .Axis(0)
                      .IndexDimensions(1)
                      .BuildCase());
  cases.push_back(GatherElementsTester()
                      .DataType(DML_TENSOR_DATA_TYPE_UINT16)
                      .InputSizes({256, 300})
                      .IndicesSizes({256, 400})
                      .IndexType(DML_TENSOR_DATA_TYPE_INT32)
                      .Axis(1)
                      .BuildCase());
  cases.push_back(GatherNdTester()
                      .DataType(DML_TENSOR_DATA_TYPE_FLOAT64)
                      .InputSizes({1, 40, 30, 16})
                      .InputDimensionCount(3)
                      .IndicesSizes({1, 1, 1000, 2})
                      .IndicesDimensionCount(2)
                      .IndexType(DML_TENSOR_DATA_TYPE_UINT32)
                      .BuildCase());
  cases.push_back(GatherNdTester()
                      .DataType(DML_TENSOR_DATA_TYPE_INT8)
                      .InputSizes({8, 50, 700})
                      .InputDimensionCount(3)
                      .IndicesSizes({8, 64, 1})
                      .IndicesDimensionCount(3)
                      .BatchDimensionCount(1)
                      .IndexType(DML_TENSOR_DATA_TYPE_UINT64)
                      .BuildCase());
  cases.push_back(SliceTester()
                      .DataType(DML_TENSOR_DATA_TYPE_INT32)
                      .InputSizes({64, 300, 20})
                      .InputStrides({6400, 21, 1})
                      .Offsets({3, 1, 2})
                      .Sizes({30, 149, 9})
                      .Strides({2, 2, 2})
                      .BuildCase());
  cases.push_back(Slice1Tester()
                      .DataType(DML_TENSOR_DATA_TYPE_FLOAT16)
                      .InputSizes({32, 128, 64})
                      .WindowOffsets({0, 10, 1})
                      .WindowSizes({32, 100, 63})
                      .WindowStrides({-1, 1, -1})
                      .OutputStrides({100 * 64 + 7, 64, 1})
                      .BuildCase());
  return cases;
}

}  // namespace dmlcpu_test
