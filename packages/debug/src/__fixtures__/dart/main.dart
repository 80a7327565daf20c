void main(List<String> args) {
  var greeting = 'hello';
  print('$greeting ${args.length}');
}
